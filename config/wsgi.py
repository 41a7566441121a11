import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_wsgi_application()

# What the server loaded to start (Django, the apps, their modules) stays for the
# process's life: the collector need not walk it again at every full collection.
gc.freeze()
