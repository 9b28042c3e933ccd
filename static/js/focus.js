// Keyboard and switch users keep their place: when a table or the live view is
// swapped (an answer, a poll, a pushed page), the control that had the focus
// gets it back in the new page. When the pupil's own move took that control
// away (the card laid, the step checked), focus goes to what the move brought:
// the note or the lines about it, else the first control of the table. A page
// that says where a move of the pupil's leads (data-next: the square of the
// number just made, the first number of the next step) is followed first,
// and before it the screen that asks who holds a shared tablet. "Go to the
// board" (the play page's skip link) goes to that control too.
(() => {
  const KEYS = ["id", "name", "value", "data-card", "data-key", "data-square", "data-step",
    "data-pupil", "aria-label", "href"];
  const SWAPPED = "main";
  let last = null; // the control focused in a swapped region, described
  let moved = false; // the pupil's own move is on its way

  function describe(el) {
    // A control whose name says its state (NMBR 9's stack: its tiles) names
    // itself with data-focus-key, which a move leaves as it is.
    const keys = el.hasAttribute("data-focus-key") ? ["data-focus-key"] : KEYS;
    const attrs = keys.filter((k) => el.hasAttribute(k))
      .map((k) => `[${k}="${CSS.escape(el.getAttribute(k))}"]`).join("");
    return { selector: el.tagName.toLowerCase() + attrs, text: el.textContent.trim(), keyed: !!attrs };
  }

  const usable = (el) => el && !el.disabled && el.getClientRects().length > 0 &&
    !el.closest("[hidden], [inert], [aria-hidden=true]");

  document.addEventListener("focusin", (event) => {
    last = event.target.closest(SWAPPED) ? describe(event.target) : null;
  });
  // Leaving for elsewhere forgets it. A control a swap removes (Chrome says
  // focusout as it goes: hence the look once the swap is done) or one disabled
  // while its move is sent loses the focus without being left.
  document.addEventListener("focusout", (event) => {
    const from = event.target;
    if (event.relatedTarget) return;
    setTimeout(() => {
      if (!from.isConnected || from.disabled || from.closest(".sending, .htmx-request")) return;
      if (document.activeElement === document.body) last = null;
    }, 0);
  });
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.requestConfig.verb === "post") moved = true;
  });

  document.addEventListener("htmx:afterSettle", () => {
    const own = moved;
    moved = false;
    const active = document.activeElement;
    if (!last || (active && active !== document.body)) return;
    const same = [...document.querySelectorAll(last.selector)].filter(usable);
    const note = own && document.querySelector("#table .note, #table [data-testid=feedback]");
    if (note && !note.hasAttribute("tabindex")) note.setAttribute("tabindex", "-1");
    // The first that takes the focus: the same control may be there but no
    // longer a control (the square the pawn was sent to).
    const ways = [
      own && nextControl(),
      same.find((el) => el.textContent.trim() === last.text) || (last.keyed && same[0]),
      note,
      firstControl(),
      // Nothing to tap now (a computer is playing): the table itself, so the
      // focus is not dropped on <body> and the next Tab goes on from the board.
      placeHolder(),
    ];
    for (const next of ways) {
      if (!next) continue;
      next.focus({ preventScroll: true });
      if (document.activeElement === next) break;
    }
  });

  // Where the table says the pupil goes next: the screen that asks who holds
  // a shared tablet, above all, else the control marked data-next.
  function nextControl() {
    return [...document.querySelectorAll("#table .handover-ok:not(:checked)")].find(usable) ||
      [...document.querySelectorAll("#table [data-next]")].find(usable);
  }

  function placeHolder() {
    const table = document.querySelector("#table");
    if (table && !table.hasAttribute("tabindex")) table.setAttribute("tabindex", "-1");
    return table;
  }

  function firstControl() {
    return [...document.querySelectorAll(
      "#table button, #table input:not([type=hidden]), #table a[href], #table [tabindex='0']",
    )].find(usable);
  }

  document.addEventListener("click", (event) => {
    const skip = event.target.closest && event.target.closest("a[data-to-board]");
    if (!skip) return;
    const to = nextControl() || firstControl();
    if (!to) return; // the link's own jump: the next Tab starts at the table
    event.preventDefault();
    to.focus();
  });
  // Space presses a drawn button (a square of the board) as it presses a real
  // one: its keyup taps it, and its keydown must not scroll the page. A keyup
  // taps it only after a keydown on it: the Enter that checked a sum, let go
  // once the answer has put the focus on a square, must not tap that square.
  const drawnButton = (el) => {
    const drawn = el.closest && el.closest("[role=button]");
    return drawn && !["BUTTON", "INPUT"].includes(drawn.tagName) ? drawn : null;
  };
  let pressedOn = null;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") pressedOn = event.target;
    if (event.key === " " && drawnButton(event.target)) event.preventDefault();
  }, true);
  document.addEventListener("keyup", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (drawnButton(event.target) && pressedOn !== event.target) event.stopPropagation();
    pressedOn = null;
  }, true);
})();
