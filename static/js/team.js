// A team on a shared tablet: every move says which pupil is answering (the
// name ticked on the table), so the calculation counts for them. The tick
// stays on the same pupil from one board to the next, until changed.
(() => {
  const KEY = "numbo.answering";
  const picked = () => document.querySelector("#table input[name=answering]:checked");

  document.addEventListener("htmx:configRequest", (event) => {
    const box = picked();
    if (box && event.detail.verb === "post") event.detail.parameters.answering = box.value;
  });
  // "I am Léa" on the pass-the-tablet screen ticks Léa as the one answering.
  document.addEventListener("click", (event) => {
    const who = event.target.closest("[data-answer]");
    const box = who && document.querySelector(
      `#table input[name=answering][value="${who.dataset.answer}"]`);
    if (box) {
      box.checked = true;
      sessionStorage.setItem(KEY, box.value);
    }
  });
  document.addEventListener("change", (event) => {
    if (event.target.name === "answering") sessionStorage.setItem(KEY, event.target.value);
  });
  function restore() {
    const kept = sessionStorage.getItem(KEY);
    const box = kept && document.querySelector(`#table input[name=answering][value="${kept}"]`);
    if (box) box.checked = true;
  }
  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:afterSettle", restore);
})();
