from django.contrib import admin

from .models import GameSession, Move, Seat, Table


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "version", "finished")
    readonly_fields = fields


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ("game", "classroom", "status", "created_at")
    list_filter = ("game", "status")
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("pupil",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "session", "version", "finished", "updated_at")
    inlines = [SeatInline]
    readonly_fields = ("state", "version", "seed")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "player", "pupil", "created_at")
    raw_id_fields = ("table", "pupil")
