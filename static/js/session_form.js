// The start form: choosing "My own variant" opens its fields, choosing a
// preset folds them away again (they stay editable by hand in between).
document.addEventListener("change", (event) => {
  const radio = event.target;
  if (!(radio instanceof HTMLInputElement) || radio.name !== "preset") return;
  const own = radio.form && radio.form.querySelector("details.own-variant");
  if (own) own.open = radio.value === "custom";
});
