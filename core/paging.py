"""Page numbers and sizes from the query string, bounded: never a 500 from ``?page=`` or
``?per_page=``.

``?per_page=`` is an integer from 1 to ``MAX_PER_PAGE`` (a larger one is capped, a
smaller or unreadable one falls back to the view's default); ``?page=`` past the
end (or past ``MAX_PAGE``, which keeps SQL's OFFSET in range) shows the last page,
an unreadable or non-positive one the first. Use ``BoundedRequestConfig`` where
``django_tables2.RequestConfig`` would go, ``BoundedTableMixin`` with
``SingleTableMixin``.
"""

from django.core.paginator import EmptyPage, PageNotAnInteger
from django_tables2 import RequestConfig

MAX_PER_PAGE = 100
MAX_PAGE = 1_000_000


def bounded_int(value, default, low, high):
    """``value`` read as an integer in ``[low, high]`` (capped), else ``default``."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return default
    if number < low:
        return default
    return min(number, high)


class BoundedRequestConfig(RequestConfig):
    """``RequestConfig`` whose ``page`` and ``per_page`` are bounded (see the module)."""

    def configure(self, table):
        if not self.paginate:
            return super().configure(table)
        table.request = self.request
        order_by = self.request.GET.getlist(table.prefixed_order_by_field)
        if order_by:
            table.order_by = order_by
        kwargs = dict(self.paginate) if hasattr(self.paginate, "items") else {}
        kwargs.pop("silent", None)
        default = kwargs.get("per_page") or table._meta.per_page
        kwargs["per_page"] = bounded_int(
            self.request.GET.get(table.prefixed_per_page_field), default, 1, MAX_PER_PAGE
        )
        page = self.request.GET.get(table.prefixed_page_field)
        kwargs["page"] = bounded_int(page, 1, 1, MAX_PAGE)
        try:
            table.paginate(**kwargs)
        except PageNotAnInteger:
            table.page = table.paginator.page(1)
        except EmptyPage:
            table.page = table.paginator.page(table.paginator.num_pages)
        return table


class BoundedTableMixin:
    """For ``SingleTableMixin`` views: their table configured by ``BoundedRequestConfig``."""

    def get_table(self, **kwargs):
        table_class = self.get_table_class()
        table = table_class(data=self.get_table_data(), **kwargs)
        paginate = self.get_table_pagination(table)
        return BoundedRequestConfig(self.request, paginate=paginate).configure(table)
