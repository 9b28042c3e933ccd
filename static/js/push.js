// Push (games/push.py): the server rings the moment this table changes, and the
// table re-reads itself at once through its poll; a pupil who only watches is
// sent the new page itself, and swaps it in without a request. While the ring
// is live the 2 s poll runs only every 20 s, as a safety net; when the ring
// drops (no Redis, a proxy that buffers, a lost connection) the 2 s poll is back.
(() => {
  const SAFETY_MS = 20000;
  // A ring without a stamp (a card turned, a pause: every table of the class
  // at once) is answered after a random moment within this, so that a whole
  // class's tablets do not all ask the server in the same instant.
  const SPREAD_MS = 500;
  let source = null;
  let address = "";
  let live = false;
  let lastPoll = 0;
  let waiting = null; // the stamp a ring announced that the page has not shown yet

  const table = () => document.getElementById("table");
  const shownStamp = (el) => new URL(el.getAttribute("hx-get"), location.href).searchParams.get("v");
  // A stamp without its version: what the session changed (games.live.stamp).
  const sessionPart = (stamp) => (stamp || "").replace(/^\d+/, "");

  window.numboPollDue = () => !live || Date.now() - lastPoll >= SAFETY_MS;

  function reread() {
    const el = table();
    if (el && window.htmx) htmx.trigger(el, "push");
  }

  function listen() {
    const el = table();
    if (!el || !el.dataset.push || !window.EventSource) return;
    const wanted = el.dataset.push.split("?")[0];
    if (source && address === wanted) return; // same table: keep the stream
    if (source) source.close();
    address = wanted;
    source = new EventSource(el.dataset.push);
    source.addEventListener("ready", () => { live = true; });
    source.addEventListener("changed", (event) => {
      // The tablet that made the move shows it already (its answer carried
      // the board): a poll would only hear "unchanged".
      const el = table();
      if (el && event.data && shownStamp(el) === event.data) return;
      // A page that shows nothing the other players' moves change (an NMBR 9
      // tile being placed) is not redrawn under the pupil's finger for them:
      // only for a pause, an end, a seat or a card turned.
      if (el && event.data && el.dataset.hears === "session" &&
          sessionPart(event.data) === sessionPart(shownStamp(el))) return;
      waiting = event.data || null;
      if (event.data) reread();
      else setTimeout(reread, Math.random() * SPREAD_MS);
    });
    source.addEventListener("page", (event) => {
      // The stamp on the first line, then the page as this tablet's poll would
      // have answered it.
      const cut = event.data.indexOf("\n");
      const el = table();
      if (!el || cut < 0 || !window.htmx) return;
      const stamp = event.data.slice(0, cut);
      // A page older than the one shown (a poll's answer overtook it) is dropped.
      if (shownStamp(el) === stamp || parseInt(stamp, 10) < parseInt(el.dataset.version, 10)) return;
      waiting = stamp;
      htmx.swap(el, event.data.slice(cut + 1), { swapStyle: "outerHTML", settleDelay: 20 });
    });
    source.addEventListener("error", () => {
      live = false;
      if (source.readyState === EventSource.CLOSED) source = null; // 204: no push here
    });
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.target === table()) lastPoll = Date.now();
  });
  // A ring that came while a poll was under way (its answer may predate the
  // change): read again once that answer is on the page, until it shows the stamp.
  document.addEventListener("htmx:afterSettle", () => {
    const el = table();
    listen();
    if (el && waiting !== null && shownStamp(el) !== waiting) {
      waiting = null;
      reread();
    } else {
      waiting = null;
    }
  });
  document.addEventListener("DOMContentLoaded", listen);
})();
