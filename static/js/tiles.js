// A row of tiles (radio buttons drawn as tiles: Number Quest's numbers and
// operations, NUM-X's choices and cards to swap) is tapped tile by tile with
// the keyboard too. A browser stops Tab at one radio of a group and leaves the
// others to the arrow keys, which a child, or a switch that sends Tab and
// Enter, does not know: Space then picked only the first number. Here Tab and
// Shift+Tab stop at every tile, as at a card or a button; Space or Enter picks
// the tile, and Enter goes on to the next row (or the answer box) instead of
// sending a half-made step. The arrow keys still move along a row, as in any
// radio group.
(() => {
  // NUM-X's cards to swap are tiles too: one row per player, one radio group.
  const ROWS = ".tiles, .nx-pick-row";
  const CONTROLS = "input:not([type=hidden]), button, select, textarea, a[href], [tabindex]";
  let tabbing = null; // "on" or "back" while a Tab press moves the focus

  const usable = (el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0 &&
    !el.closest("[hidden], [inert]");
  const isTile = (el) => el instanceof HTMLInputElement && el.type === "radio" && !!el.closest(ROWS);
  // The tiles of one radio group, in the order of the page.
  const rowOf = (tile) => [...(tile.form || document).querySelectorAll("input[type=radio]")]
    .filter((other) => other.name === tile.name && other.form === tile.form && usable(other));

  // The control after this row, in the row's form (or its section); in a row
  // of tiles, the tile already picked, else the first.
  function after(tile) {
    const row = rowOf(tile);
    const last = row[row.length - 1];
    const scope = tile.form || tile.closest("section, #table") || document.body;
    const next = [...scope.querySelectorAll(CONTROLS)].find((el) =>
      usable(el) && !row.includes(el) &&
      (last.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
    if (next && isTile(next)) {
      const nextRow = rowOf(next);
      return nextRow.find((other) => other.checked) || nextRow[0];
    }
    return next;
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey) {
      tabbing = event.shiftKey ? "back" : "on";
      setTimeout(() => { tabbing = null; }, 0);
    }
    const tile = event.target;
    if (!isTile(tile)) return;
    if (event.key === "Tab" && tabbing) {
      const row = rowOf(tile);
      const next = row[row.indexOf(tile) + (event.shiftKey ? -1 : 1)];
      if (next) {
        event.preventDefault();
        next.focus();
      }
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!tile.checked) tile.click();
      const next = after(tile);
      if (next) next.focus();
    }
  });

  // Tab into a row starts at its first tile (Shift+Tab at its last), as it
  // does in a row of cards: the browser would go straight to the tile picked.
  document.addEventListener("focusin", (event) => {
    const tile = event.target;
    if (!tabbing || !isTile(tile)) return;
    const row = rowOf(tile);
    if (event.relatedTarget && row.includes(event.relatedTarget)) return;
    const start = tabbing === "on" ? row[0] : row[row.length - 1];
    if (start && start !== tile) start.focus();
  });
})();
