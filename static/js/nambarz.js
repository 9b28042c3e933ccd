// Nambarz: building a play from the hand. Tap one card to lay it (or a joker
// to play it); tap cards in order to calculate: an operation between each two
// and, on the keypad, the result of each step. The next step starts from the
// number the pupil typed, never from one the page worked out. The server
// checks everything again; after a refusal or a wrong result the same cards
// and operations come back, the results to type again.
(() => {
  const SYMBOLS = { "+": "+", "-": "−", "*": "×", "/": "÷" };
  const KEY = "numbo.nambarz.play";
  let play = null; // { table, picked: [ids], ops: [], results: [] }

  const tableOf = (el) => el && el.closest("#table.nz");
  const formOf = (table) => table && table.querySelector("form.nz-play");
  const cardButton = (table, id) => table.querySelector(`.ncard[data-card="${id}"]`);

  function fresh(table) {
    return { table: table.dataset.table, picked: [], ops: [], results: [] };
  }

  function activate(form, input) {
    form.querySelectorAll("input[data-step]").forEach((box) => box.removeAttribute("data-active"));
    if (input) {
      input.setAttribute("data-active", "");
    }
  }

  function complete() {
    const steps = play.picked.length - 1;
    return steps >= 1 && play.ops.filter(Boolean).length === steps &&
      play.results.slice(0, steps).every((r) => /^\d{1,7}$/.test(r || ""));
  }

  function showButtons(table, form) {
    const one = play.picked.length === 1 ? cardButton(table, play.picked[0]) : null;
    const isJoker = one && one.dataset.family === "joker";
    form.querySelector('[data-act="match"]').hidden = !one || isJoker;
    form.querySelector('[data-act="joker"]').hidden = !isJoker;
    const calc = form.querySelector('[data-act="calculate"]');
    calc.hidden = play.picked.length < 2;
    calc.disabled = !complete();
    form.querySelector('[data-act="clear"]').hidden = play.picked.length === 0;
    form.querySelector("[data-pad]").hidden = play.picked.length < 2;
  }

  function numberSpan(text, cls) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    return span;
  }

  function render(table) {
    const form = formOf(table);
    if (!form) return;
    table.querySelectorAll(".ncard").forEach((button) => {
      const at = play.picked.indexOf(Number(button.dataset.card));
      button.classList.toggle("picked", at >= 0);
      button.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      if (at >= 0) button.dataset.order = String(at + 1);
      else delete button.dataset.order;
    });
    const build = form.querySelector("[data-build]");
    build.textContent = "";
    if (play.picked.length === 1) {
      const one = cardButton(table, play.picked[0]);
      if (one && one.dataset.meaning) build.append(numberSpan(one.dataset.meaning, "nz-meaning"));
    }
    const allowed = form.dataset.ops || "+-*/";
    for (let step = 0; step < play.picked.length - 1; step++) {
      const row = document.createElement("div");
      row.className = "nz-step";
      const left = step === 0
        ? cardButton(table, play.picked[0]).dataset.number
        : (play.results[step - 1] || "…");
      row.append(numberSpan(left, step === 0 ? "nz-num" : "nz-num typed"));
      const ops = document.createElement("span");
      ops.className = "nz-ops";
      ops.setAttribute("role", "group");
      ops.setAttribute("aria-label", form.dataset.tPickOp);
      for (const op of allowed) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "nz-op";
        b.dataset.step = String(step);
        b.dataset.op = op;
        b.textContent = SYMBOLS[op];
        b.setAttribute("aria-pressed", play.ops[step] === op ? "true" : "false");
        ops.append(b);
      }
      row.append(ops);
      row.append(numberSpan(cardButton(table, play.picked[step + 1]).dataset.number, "nz-num"));
      row.append(numberSpan("=", "nz-eq"));
      const box = document.createElement("input");
      box.type = "text";
      box.inputMode = "numeric";
      box.setAttribute("inputmode", "numeric");
      box.pattern = "[0-9]*";
      box.maxLength = 7;
      box.autocomplete = "off";
      box.dataset.step = String(step);
      box.value = play.results[step] || "";
      box.setAttribute("aria-label", form.dataset.tResult + " " + (step + 1));
      box.placeholder = "?";
      row.append(box);
      build.append(row);
    }
    const empty = [...build.querySelectorAll("input[data-step]")].find((b) => !b.value);
    activate(form, empty || build.querySelector("input[data-step]"));
    showButtons(table, form);
  }

  document.addEventListener("click", (event) => {
    const table = tableOf(event.target);
    if (!table) return;
    const card = event.target.closest(".ncard");
    if (card && !card.disabled && formOf(table)) {
      if (!play || play.table !== table.dataset.table) play = fresh(table);
      const id = Number(card.dataset.card);
      const at = play.picked.indexOf(id);
      if (at >= 0) {
        // Taking a card back takes back the steps after it.
        play.picked = play.picked.slice(0, at);
        play.ops = play.ops.slice(0, Math.max(at - 1, 0));
        play.results = play.results.slice(0, Math.max(at - 1, 0));
      } else {
        play.picked.push(id);
      }
      render(table);
      return;
    }
    const op = event.target.closest(".nz-op");
    if (op) {
      play.ops[Number(op.dataset.step)] = op.dataset.op;
      render(table);
      return;
    }
    const box = event.target.closest("input[data-step]");
    if (box) {
      activate(formOf(table), box);
      return;
    }
    const act = event.target.closest("[data-act]");
    if (!act || !play) return;
    const form = formOf(table);
    if (act.dataset.act === "clear") {
      play = fresh(table);
      render(table);
      return;
    }
    form.elements.type.value = act.dataset.act;
    form.elements.card.value = play.picked[0] ?? "";
    form.elements.cards.value = play.picked.join(",");
    form.elements.ops.value = play.ops.join(",");
    form.elements.results.value = play.results.slice(0, play.picked.length - 1).join(",");
    sessionStorage.setItem(KEY, JSON.stringify({
      table: table.dataset.table, version: Number(table.dataset.version),
      picked: play.picked, ops: play.ops,
    }));
  });

  document.addEventListener("input", (event) => {
    const box = event.target.closest("input[data-step]");
    const table = tableOf(box);
    if (!box || !table || !play) return;
    const step = Number(box.dataset.step);
    box.value = box.value.replace(/\D/g, "").slice(0, 7);
    play.results[step] = box.value;
    const next = table.querySelectorAll(".nz-step")[step + 1];
    if (next) next.querySelector(".nz-num").textContent = box.value || "…";
    showButtons(table, formOf(table));
  });

  // A new table page: start empty, or bring back the play the server refused
  // (same version) or found a wrong result in (the next version, retrying).
  function setUp() {
    const table = document.querySelector("#table.nz");
    if (!table) return;
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    const version = Number(table.dataset.version);
    play = fresh(table);
    if (saved && saved.table === table.dataset.table && formOf(table) &&
        (saved.version === version || (table.dataset.retrying && saved.version + 1 === version))) {
      const inHand = saved.picked.every((id) => cardButton(table, id));
      if (inHand) play = { table: saved.table, picked: saved.picked, ops: saved.ops, results: [] };
    }
    sessionStorage.removeItem(KEY);
    render(table);
  }
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "table") setUp();
  });
})();
