from django.contrib import admin

from .models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The record, for the install's IT staff: read only, as the school's page."""

    list_display = ("at", "school", "teacher_name", "kind", "classroom_name", "pupil_count")
    list_filter = ("kind", "school")
    date_hierarchy = "at"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
