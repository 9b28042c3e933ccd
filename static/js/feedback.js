// What a pupil was told about their move (the note, the lines about it) stays
// on screen as long as the board it was said of. Only the answer to the move
// carries it: a poll or a pushed page of the same version (a pause, the end
// of the session, a seat taken) is drawn without it, and swapped in whole it
// took the words away, and the focus on them, under the pupil's eyes. Those
// words are carried over from the page they were on into the one that
// replaces it, at the same place: nothing the server did not send this
// tablet, so nothing of another player's hand. A page that says something
// of its own about a move (a note) keeps its own.
(() => {
  const SAID = "[data-testid=note], [data-testid=feedback]";
  let shown = null; // the #table on screen, kept to read once it is replaced

  // What an element looks like to be found again in the new page: its tag
  // and its test id, else its classes (a swap of the same board draws the
  // same structure around the words).
  function looks(el) {
    const tag = el.tagName.toLowerCase();
    if (el.dataset.testid) return `${tag}[data-testid="${CSS.escape(el.dataset.testid)}"]`;
    return tag + [...el.classList].map((name) => "." + CSS.escape(name)).join("");
  }

  // The k-th child of ``parent`` that looks like ``el``, counted as ``el`` is among its own.
  function sameChild(parent, el) {
    const selector = looks(el);
    const nth = [...el.parentElement.children].filter((c) => c.matches(selector)).indexOf(el);
    return [...parent.children].filter((c) => c.matches(selector))[nth] || null;
  }

  function carry(before, table) {
    const said = [...before.querySelectorAll(SAID)];
    if (!said.length) return;
    const first = said[0];
    const parent = first.parentElement;
    const where = parent === before ? table : table.querySelector(looks(parent)) || table;
    // Copies: the words that had the focus stay out of the page, so that
    // focus.js, hearing them leave, gives the focus back to their copy.
    const copies = said.map((el) => el.cloneNode(true));
    const anchor = first.previousElementSibling;
    const after = anchor ? sameChild(where, anchor) : null;
    if (after) after.after(...copies);
    else where.prepend(...copies);
  }

  document.addEventListener("htmx:afterSwap", () => {
    const table = document.getElementById("table");
    const before = shown;
    shown = table;
    if (!table || !before || before === table || before.isConnected) return;
    if (before.dataset.version !== table.dataset.version) return;
    if (table.querySelector(SAID)) return;
    carry(before, table);
  });
  const start = () => { shown = document.getElementById("table"); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
