// The track's hundred squares are one stop of Tab, not a hundred: Tab comes to
// the square the pupil's pawn is on (data-track-from), the arrow keys go from
// square to square as the track is drawn, and typing a number goes straight to
// its square ("5" then "7": 57). Enter or Space taps the square focused. The
// square focused last is the one Tab comes back to.
(() => {
  const SQUARES = "svg.track.tappable g.sq.tap";
  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const TYPING_MS = 1200; // the digits of one number, typed one after the other
  let typed = "";
  let typedAt = 0;

  function setUp() {
    const table = document.getElementById("table");
    const squares = table ? [...table.querySelectorAll(SQUARES)] : [];
    if (!squares.length) return;
    const from = table.querySelector("[data-track-from]");
    const start = (from && squares.find((sq) => sq.dataset.square === from.dataset.trackFrom)) ||
      squares[0];
    squares.forEach((square) => square.setAttribute("tabindex", square === start ? "0" : "-1"));
    // Where "Go to the board", and the answer to the pupil's sum, bring the focus.
    start.dataset.next = "";
  }

  function centre(el) {
    const box = el.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2, box.width];
  }

  // The nearest square that way, in the same row or column of the drawing.
  function toward(square, [dx, dy]) {
    const [x, y, size] = centre(square);
    let best = null;
    let bestDistance = Infinity;
    square.closest("svg").querySelectorAll(SQUARES).forEach((other) => {
      const [ox, oy] = centre(other);
      const along = dx ? (ox - x) * dx : (oy - y) * dy;
      const across = dx ? Math.abs(oy - y) : Math.abs(ox - x);
      if (along < size / 2 || across > size / 2) return;
      if (along < bestDistance) {
        best = other;
        bestDistance = along;
      }
    });
    return best;
  }

  function go(square) {
    if (square) square.focus();
  }

  document.addEventListener("keydown", (event) => {
    const square = event.target.closest && event.target.closest(SQUARES);
    if (!square || event.altKey || event.ctrlKey || event.metaKey) return;
    if (ARROWS[event.key]) {
      event.preventDefault();
      go(toward(square, ARROWS[event.key]));
    } else if (/^[0-9]$/.test(event.key)) {
      event.preventDefault();
      const now = Date.now();
      typed = (now - typedAt < TYPING_MS ? typed : "") + event.key;
      typedAt = now;
      const svg = square.closest("svg");
      const found = (number) => svg.querySelector(`g.sq.tap[data-square="${Number(number)}"]`);
      go(found(typed) || found(event.key));
      if (!found(typed)) typed = event.key;
    }
  });

  // The square focused is the one Tab comes back to.
  document.addEventListener("focusin", (event) => {
    const square = event.target.closest && event.target.closest(SQUARES);
    if (!square) return;
    square.closest("svg").querySelectorAll(SQUARES).forEach((other) => {
      other.setAttribute("tabindex", other === square ? "0" : "-1");
    });
  });

  document.addEventListener("htmx:load", setUp);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
