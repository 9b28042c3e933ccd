// The on-screen number pad: a tap types into the answer box of its own form.
// Delegated from the document, so it keeps working after htmx swaps the table.
document.addEventListener("click", (event) => {
  const key = event.target.closest("[data-key]");
  if (!key) return;
  const form = key.closest("form");
  // A form with several answer boxes marks the one being typed (data-active).
  const box = form && (form.querySelector("input[inputmode=numeric][data-active]") ||
    form.querySelector("input[inputmode=numeric]"));
  if (!box) return;
  const value = key.dataset.key;
  if (value === "back") box.value = box.value.slice(0, -1);
  else if (value === "clear") box.value = "";
  else if (box.value.length < (box.maxLength > 0 ? box.maxLength : 7)) box.value += value;
  box.dispatchEvent(new Event("input", { bubbles: true }));
});
