from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .forms import AdminSignInForm
from .models import Attempt, Classroom, Pupil, PupilSkill, ReportJob, Teacher

# The admin's sign-in counts guesses with the teachers' (classroom.forms.LimitedSignIn).
admin.site.login_form = AdminSignInForm


@admin.register(Teacher)
class TeacherAdmin(UserAdmin):
    ordering = ("email",)
    list_display = ("email", "display_name", "is_staff", "is_active", "date_joined")
    search_fields = ("email", "display_name")
    fieldsets = (
        (None, {"fields": ("email", "password", "display_name")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)


class PupilInline(admin.TabularInline):
    model = Pupil
    extra = 0
    fields = ("first_name", "initial", "avatar")


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "school_year", "teacher", "code", "archived_at")
    list_filter = ("school_year",)
    search_fields = ("name", "teacher__email", "code")
    inlines = [PupilInline]


@admin.register(Pupil)
class PupilAdmin(admin.ModelAdmin):
    list_display = ("first_name", "initial", "classroom")
    search_fields = ("first_name",)
    list_select_related = ("classroom",)


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("pupil", "skill", "operands", "expected", "given", "correct", "created_at")
    list_filter = ("skill", "correct", "game")
    list_select_related = ("pupil",)
    raw_id_fields = ("pupil", "session", "table")


@admin.register(PupilSkill)
class PupilSkillAdmin(admin.ModelAdmin):
    list_display = ("pupil", "skill", "status", "updated_at")
    list_filter = ("skill", "status")
    raw_id_fields = ("pupil",)


@admin.register(ReportJob)
class ReportJobAdmin(admin.ModelAdmin):
    list_display = ("kind", "teacher", "classroom", "status", "progress", "created_at")
    list_filter = ("kind", "status")
    raw_id_fields = ("teacher", "classroom")
    exclude = ("result",)
