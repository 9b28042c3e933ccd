from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..forms import SignUpForm


def sign_up(request):
    if request.user.is_authenticated:
        return redirect("classroom:class_list")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        teacher = form.save()
        login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Numbo! Create your first class."))
        return redirect("classroom:class_create")
    return render(request, "registration/sign_up.html", {"form": form})


def home(request):
    if request.user.is_authenticated:
        return redirect("classroom:class_list")
    if request.pupil:
        return redirect("classroom:pupil_home")
    return render(request, "home.html")
