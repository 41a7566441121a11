from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """Benchmark commands (``manage.py bench_*``). Not shipped: a development tool."""

    name = "benchmarks"
    verbose_name = "Benchmarks"
