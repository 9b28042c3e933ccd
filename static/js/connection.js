// School wifi drops. A move that cannot reach the server is kept, the pupil is
// told in a child's words, and it is sent again by itself until it arrives: its
// move id makes a second sending harmless (games.services.play answers
// "replayed"). It is kept in sessionStorage too, so a reload while it waits
// sends it from the page that comes back, if that page is still the board it
// was made on. Once it arrives the strip says whether it counts: the answer
// names what became of it (games.views.play.MOVE_HEADER). A poll or a re-read
// that fails is tried again within seconds, not at the next safety poll.
// One move at a time: while a move is on its way (or kept) no control sends
// another, and the control tapped shows that it is sending; an answer slower
// than a second is said in words too.
(() => {
  const RETRY_MS = 2000;
  const SLOW_MS = 1000;
  const STORE = "numbo.kept";
  const HEADER = "Numbo-Move";
  // {path, body: [[name, value]...], page, pupil}: the move waiting to be sent.
  let kept = null;
  let retry = null;
  let resending = false; // one sending of the kept move at a time (a retry, the browser back online)
  let slow = null;
  let moving = null; // the move on its way: {xhr, marked: [controls shown sending]}
  let touched = null; // the control the pupil last tapped or pressed a key on

  const isMove = (config) => config.verb === "post" && config.path.endsWith("/move/");
  const counts = (status) => status === "applied" || status === "replayed";
  const pupil = () => document.body.dataset.pupil || "";

  function say(state) {
    const strip = document.getElementById("connection");
    if (!strip) return;
    strip.dataset.state = state;
    strip.hidden = !state;
    strip.querySelector("span").textContent = state ? strip.dataset[state] : "";
  }
  const saying = () => {
    const strip = document.getElementById("connection");
    return strip ? strip.dataset.state || "" : "";
  };

  // The page's own headers (its CSRF token): a board square's move has no form
  // to carry the token in its fields.
  function pageHeaders() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    } catch (error) {
      return {};
    }
  }

  function keep(move) {
    kept = move;
    try {
      sessionStorage.setItem(STORE, JSON.stringify(move));
    } catch (error) {
      // A private window may refuse: the move waits as long as the page.
    }
  }

  function release() {
    kept = null;
    try {
      sessionStorage.removeItem(STORE);
    } catch (error) {
      // Nothing stored.
    }
    unmark();
  }

  function mark(controls) {
    for (const control of controls) {
      control.classList.add("sending");
      control.setAttribute("aria-busy", "true");
    }
  }

  function unmark() {
    if (!moving) return;
    for (const control of moving.marked) {
      control.classList.remove("sending");
      control.removeAttribute("aria-busy");
    }
    moving = null;
  }

  // Whether a move is on its way: its request opened and not done (an answer,
  // an error or an abort all end it, so a lost event cannot block the table).
  const underWay = () => moving !== null && moving.xhr.readyState > 0 && moving.xhr.readyState < 4;

  // What became of a move, for the pages' scripts (drafts.js forgets the work
  // that went into a move that counts).
  function arrived(status) {
    document.dispatchEvent(new CustomEvent("numbo:arrived", { detail: { status } }));
  }

  function answered(status) {
    say(counts(status) ? "sent" : "refused");
    setTimeout(() => {
      if (!kept && ["sent", "refused"].includes(saying())) say("");
    }, counts(status) ? 3000 : 8000);
  }

  function sendKept() {
    clearTimeout(retry);
    retry = null;
    if (!kept || resending) return;
    resending = true;
    say("sending");
    fetch(kept.path, {
      method: "POST", body: new URLSearchParams(kept.body), credentials: "same-origin",
      headers: { ...pageHeaders(), "HX-Request": "true", "HX-Current-URL": location.href },
    }).then((response) => {
      if (response.status >= 502) throw new Error("the server is not answering yet");
      return response.text().then((html) => {
        release();
        const status = response.headers.get(HEADER) || "";
        arrived(status);
        const table = document.getElementById("table");
        if (!response.ok || response.headers.get("HX-Refresh") || !table) {
          location.reload();
          return;
        }
        document.dispatchEvent(new CustomEvent("numbo:own-answer"));
        htmx.swap(table, html, { swapStyle: "outerHTML" });
        answered(status);
      });
    }).catch(() => {
      say("offline");
      retry = setTimeout(sendKept, RETRY_MS);
    }).finally(() => { resending = false; });
  }

  function failed(event) {
    const config = event.detail.requestConfig;
    if (!config) return;
    if (isMove(config)) {
      const body = [...config.formData.entries()].filter(([, value]) => typeof value === "string");
      keep({ path: config.path, body, page: location.pathname, pupil: pupil() });
      say("offline");
      if (!retry) retry = setTimeout(sendKept, RETRY_MS);
      return;
    }
    // Anything else posted (a teacher's button) is not kept: say it did not
    // go, rather than that the game will catch up.
    if (!kept) say(config.verb === "get" ? "lost" : "unsent");
    // A re-read after a ring (or a poll) that failed: again soon, not in 20 s.
    const table = document.getElementById("table");
    if (table && config.elt === table) setTimeout(() => htmx.trigger(table, "push"), RETRY_MS);
  }

  // A move kept when the page went away: sent from the page that comes back
  // when it shows the same board (the same version, or the same scene where
  // the page names one: games.pages.base.Presenter.scene); on any other board
  // it arrived already or is of a turn gone by, and is let go.
  function resume() {
    let saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(STORE) || "null");
    } catch (error) {
      saved = null;
    }
    if (!saved) return;
    const table = document.getElementById("table");
    const sent = new URLSearchParams(saved.body);
    const seen = table && table.querySelector("form input[name=seen]");
    const same = table && saved.page === location.pathname && saved.pupil === pupil() &&
      (sent.get("version") === table.dataset.version ||
        (seen !== null && seen.value !== "" && sent.get("seen") === seen.value));
    if (!same) {
      release();
      return;
    }
    kept = saved;
    sendKept();
  }

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr.status >= 502) failed(event);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful && saying() === "lost") say("");
  });

  // The control tapped: a card or a square whose tap sends through a form of
  // its own page (a Nambarz card laid alone) shows it is sending too.
  for (const kind of ["pointerdown", "keydown"]) {
    document.addEventListener(kind, (event) => {
      const target = event.target.closest && event.target.closest(
        "button, [role=button], label, a, input");
      touched = target && target.closest("#table") ? target : null;
    }, true);
  }

  // One tap, one sending: a second tap while a move is under way (or kept for
  // the wifi) would cancel it (hx-sync replaces a request before
  // htmx:beforeRequest is heard) and send another. Heard first, before a
  // game's own script readies the form for sending.
  document.addEventListener("htmx:confirm", (event) => {
    if (event.detail.verb !== "post" || !(kept || underWay())) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
  document.addEventListener("htmx:beforeRequest", (event) => {
    const config = event.detail.requestConfig;
    if (config.verb !== "post") return;
    unmark();
    const control = event.detail.elt;
    const marked = [control];
    if (touched && touched.isConnected && touched !== control) marked.push(touched);
    moving = { xhr: event.detail.xhr, marked };
    mark(marked);
    if (isMove(config)) {
      clearTimeout(slow);
      slow = setTimeout(() => { if (underWay()) say("sending"); }, SLOW_MS);
    }
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!moving || event.detail.xhr !== moving.xhr) return;
    clearTimeout(slow);
    if (kept) return; // the controls stay shown sending until the move arrives
    unmark();
    const config = event.detail.requestConfig;
    if (!config || !isMove(config) || !event.detail.successful) {
      if (saying() === "sending") say("");
      return;
    }
    const status = event.detail.xhr.getResponseHeader(HEADER) || "";
    arrived(status);
    // Said only when the wait was said: a quick answer speaks for itself.
    if (saying() === "sending") answered(status);
  });
  window.addEventListener("online", () => { if (kept) sendKept(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resume);
  else resume();
})();
