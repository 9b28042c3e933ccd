// Nambarz: building a play from the hand. Tap one card to lay it (or a joker
// to play it); tap cards in order to calculate: an operation between each two
// and, on the keypad, the result of each step. The next step starts from the
// number the pupil typed, never from one the page worked out. A card that
// can't join the cards picked (RULES 3.4 b: the other family, a joker, a card
// that matches the target) stays out, and the page says why at the tap, not
// after the results are typed. The server checks everything again; after a
// refusal the same cards, operations and results come back; after a wrong
// result, the results before the wrong step.
(() => {
  const SYMBOLS = { "+": "+", "-": "−", "*": "×", "/": "÷" };
  const KEY = "numbo.nambarz.play";
  let play = null; // { table, picked: [ids], ops: [], results: [] }

  const tableOf = (el) => el && el.closest("#table.nz");
  const formOf = (table) => table && table.querySelector("form.nz-play");
  const cardButton = (table, id) => table.querySelector(`.ncard[data-card="${id}"]`);

  function fresh(table) {
    return {
      table: table.dataset.table, picked: [], ops: [], results: [], steps: [], cur: {}, said: "",
    };
  }

  function activate(form, input) {
    form.querySelectorAll("input[data-step]").forEach((box) => box.removeAttribute("data-active"));
    if (input) {
      input.setAttribute("data-active", "");
    }
  }

  const brackets = (form) => form.dataset.brackets === "1";

  function complete(form) {
    if (brackets(form)) {
      return play.picked.length >= 2 && play.steps.length === play.picked.length - 1;
    }
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
    calc.disabled = !complete(form);
    form.querySelector('[data-act="clear"]').hidden = play.picked.length === 0;
    form.querySelector("[data-pad]").hidden = play.picked.length < 2;
  }

  function numberSpan(text, cls) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    return span;
  }

  // Why this card can't go in a calculation with the first card picked;
  // "" when it can.
  function cannotJoin(form, first, card) {
    const bound = form.dataset.bound ? form.dataset.bound.split(",") : [];
    if (bound.length) return form.dataset.tOnJoker;
    if (form.dataset.pending === "follow") return form.dataset.tFollow;
    if (first.dataset.family === "joker" || card.dataset.family === "joker") {
      return form.dataset.tJoker;
    }
    if (card.dataset.family !== first.dataset.family) {
      const words = card.dataset.family === "drawing" ? form.dataset.tAnimal : form.dataset.tNoAnimal;
      return words.replace("%(card)s", card.dataset.name).replace("%(first)s", first.dataset.name);
    }
    if (card.dataset.number === form.dataset.target ||
        (card.dataset.animal !== "" && card.dataset.animal === form.dataset.targetAnimal)) {
      return form.dataset.tMatches;
    }
    return "";
  }

  // What the pupil has built, kept through a reload (drafts.js).
  function keep() {
    if (window.numboDraft && play) {
      const { picked, ops, results, steps, cur } = play;
      window.numboDraft.save("nambarz", { picked, ops, results, steps, cur });
    }
  }

  function render(table) {
    const form = formOf(table);
    if (!form) return;
    keep();
    const first = play.picked.length ? cardButton(table, play.picked[0]) : null;
    table.querySelectorAll(".ncard").forEach((button) => {
      const at = play.picked.indexOf(Number(button.dataset.card));
      button.classList.toggle("picked", at >= 0);
      button.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      if (at >= 0) button.dataset.order = String(at + 1);
      else delete button.dataset.order;
      // Still tappable, to say why not: a dimmed card that did nothing would
      // leave a child guessing.
      const out = first && at < 0 && !button.disabled && cannotJoin(form, first, button) !== "";
      button.classList.toggle("cannot", Boolean(out));
      if (out) button.setAttribute("aria-disabled", "true");
      else button.removeAttribute("aria-disabled");
    });
    const build = form.querySelector("[data-build]");
    build.textContent = "";
    if (play.picked.length === 1) {
      const one = cardButton(table, play.picked[0]);
      if (one && one.dataset.meaning) build.append(numberSpan(one.dataset.meaning, "nz-meaning"));
    }
    if (play.said) {
      const why = document.createElement("p");
      why.className = "nz-why";
      why.setAttribute("data-testid", "why-not");
      why.textContent = play.said;
      build.append(why);
      play.said = "";
    }
    const allowed = form.dataset.ops || "+-*/";
    if (brackets(form)) {
      renderFree(table, form, build, allowed);
      showButtons(table, form);
      return;
    }
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


  // The brackets variant: the pupil joins any two numbers they have (the
  // cards tapped, the results typed), one step at a time, as in Number Quest.
  // Positions are the engine's: cards 0..k-1 in the order tapped, then the
  // result of each step.
  function value(table, position) {
    const k = play.picked.length;
    if (position < k) return cardButton(table, play.picked[position]).dataset.number;
    return play.steps[position - k].result;
  }

  function pool() {
    const k = play.picked.length;
    const used = new Set(play.steps.flatMap((step) => [step.a, step.b]));
    const all = [...Array(k + play.steps.length).keys()];
    return all.filter((p) => !used.has(p));
  }

  function chips(table, form, slot) {
    const group = document.createElement("span");
    group.className = "nz-pool";
    group.setAttribute("role", "group");
    for (const position of pool()) {
      if (slot === "b" && position === play.cur.a) continue;
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "nz-chip";
      chip.dataset.slot = slot;
      chip.dataset.position = String(position);
      chip.textContent = value(table, position);
      chip.setAttribute("aria-pressed", play.cur[slot] === position ? "true" : "false");
      group.append(chip);
    }
    return group;
  }

  function renderFree(table, form, build, allowed) {
    play.steps.forEach((step) => {
      const done = document.createElement("div");
      done.className = "nz-step done";
      done.textContent = `${value(table, step.a)} ${SYMBOLS[step.op]} ${value(table, step.b)} = ${step.result}`;
      build.append(done);
    });
    if (play.picked.length < 2 || play.steps.length === play.picked.length - 1) return;
    const row = document.createElement("div");
    row.className = "nz-step";
    row.append(chips(table, form, "a"));
    const ops = document.createElement("span");
    ops.className = "nz-ops";
    for (const op of allowed) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "nz-op";
      b.dataset.step = "free";
      b.dataset.op = op;
      b.textContent = SYMBOLS[op];
      b.setAttribute("aria-pressed", play.cur.op === op ? "true" : "false");
      ops.append(b);
    }
    row.append(ops);
    row.append(chips(table, form, "b"));
    row.append(numberSpan("=", "nz-eq"));
    const box = document.createElement("input");
    box.type = "text";
    box.setAttribute("inputmode", "numeric");
    box.maxLength = 7;
    box.autocomplete = "off";
    box.dataset.step = "free";
    box.placeholder = "?";
    box.value = play.cur.result || "";
    box.setAttribute("aria-label", form.dataset.tResult);
    row.append(box);
    const next = document.createElement("button");
    next.type = "button";
    next.className = "btn secondary nz-next";
    next.textContent = form.dataset.tNext;
    next.disabled = !(play.cur.a !== undefined && play.cur.b !== undefined && play.cur.op &&
      /^\d{1,7}$/.test(play.cur.result || ""));
    row.append(next);
    build.append(row);
    activate(form, box);
  }

  // Whether this card goes on the target by itself: the same number or the
  // same drawing, or any card of the family a joker on the target allows.
  function laysAlone(form, card) {
    if (card.dataset.family === "joker") return false;
    const bound = form.dataset.bound ? form.dataset.bound.split(",") : [];
    if (bound.length) return bound.includes(card.dataset.family);
    if (form.dataset.pending === "follow") return false;
    return card.dataset.number === form.dataset.target ||
      (card.dataset.animal !== "" && card.dataset.animal === form.dataset.targetAnimal);
  }

  function submit(table, kind) {
    formOf(table).querySelector(`[data-act="${kind}"]`).click();
  }

  // The calculation is drawn again at each tap: the focus on a control drawn
  // again goes to the same control in the new drawing, or on to what comes
  // next. An operation picked with the keyboard (a click without a pointer)
  // goes on to its result box; by touch it does not (a box focused opens the
  // tablet's keyboard over the keypad).
  function keepFocus(table, before, byKeys) {
    const form = formOf(table);
    if (!form || (before.isConnected && before.getClientRects().length)) return;
    const build = form.querySelector("[data-build]");
    const { step, op, slot, position } = before.dataset;
    let next = null;
    if (before.matches(".nz-op")) {
      next = (byKeys && build.querySelector(`input[data-step="${step}"]`)) ||
        build.querySelector(`.nz-op[data-step="${step}"][data-op="${CSS.escape(op)}"]`);
    } else if (before.matches(".nz-chip")) {
      next = build.querySelector(`.nz-chip[data-slot="${slot}"][data-position="${position}"]`);
    } else if (before.matches(".nz-next")) {
      next = build.querySelector(".nz-chip");
    }
    const shown = (el) => !el.disabled && el.getClientRects().length > 0;
    next = next || [...form.querySelectorAll("[data-act], .nz-op, .nz-chip")].find(shown) ||
      [...table.querySelectorAll(".ncard")].find(shown);
    if (next) next.focus();
  }

  document.addEventListener("click", (event) => {
    const table = tableOf(event.target);
    const before = document.activeElement;
    const inForm = table && formOf(table) && formOf(table).contains(before);
    tapped(event);
    if (inForm) keepFocus(table, before, event.detail === 0);
  });

  function tapped(event) {
    const table = tableOf(event.target);
    if (!table) return;
    const card = event.target.closest(".ncard");
    if (card && !card.disabled && formOf(table)) {
      if (!play || play.table !== table.dataset.table) play = fresh(table);
      const id = Number(card.dataset.card);
      if (!play.picked.length && laysAlone(formOf(table), card)) {
        // Concordance is one tap: a card that goes on the target alone can't
        // be inside a calculation anyway.
        play.picked = [id];
        submit(table, "match");
        return;
      }
      const at = play.picked.indexOf(id);
      const why = at < 0 && play.picked.length
        ? cannotJoin(formOf(table), cardButton(table, play.picked[0]), card) : "";
      if (why) {
        play.said = why;
        render(table);
        return;
      }
      if (at >= 0) {
        // Taking a card back takes back the steps after it.
        play.picked = play.picked.slice(0, at);
        play.ops = play.ops.slice(0, Math.max(at - 1, 0));
        play.results = play.results.slice(0, Math.max(at - 1, 0));
      } else {
        play.picked.push(id);
      }
      // In the brackets variant, a card taken back undoes the steps.
      if (at >= 0) { play.steps = []; play.cur = {}; }
      render(table);
      return;
    }
    const chip = event.target.closest(".nz-chip");
    if (chip) {
      play.cur[chip.dataset.slot] = Number(chip.dataset.position);
      if (play.cur.a === play.cur.b) delete play.cur.b;
      render(table);
      return;
    }
    const op = event.target.closest(".nz-op");
    if (op) {
      if (op.dataset.step === "free") play.cur.op = op.dataset.op;
      else play.ops[Number(op.dataset.step)] = op.dataset.op;
      render(table);
      return;
    }
    if (event.target.closest(".nz-next")) {
      play.steps.push({ ...play.cur });
      play.cur = {};
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
    if (brackets(form)) {
      form.elements.ops.value = play.steps.map((step) => step.op).join(",");
      form.elements.results.value = play.steps.map((step) => step.result).join(",");
      form.elements.steps.value = play.steps.map((step) => `${step.a}-${step.b}`).join(",");
    } else {
      form.elements.ops.value = play.ops.join(",");
      form.elements.results.value = play.results.slice(0, play.picked.length - 1).join(",");
    }
    sessionStorage.setItem(KEY, JSON.stringify({
      table: table.dataset.table, version: Number(table.dataset.version),
      picked: play.picked, ops: play.ops, results: play.results, steps: play.steps,
    }));
  }

  document.addEventListener("input", (event) => {
    const box = event.target.closest("input[data-step]");
    const table = tableOf(box);
    if (!box || !table || !play) return;
    box.value = box.value.replace(/\D/g, "").slice(0, 7);
    if (box.dataset.step === "free") {
      play.cur.result = box.value;
      keep();
      const next = box.closest(".nz-step").querySelector(".nz-next");
      next.disabled = !(play.cur.a !== undefined && play.cur.b !== undefined && play.cur.op &&
        /^\d{1,7}$/.test(box.value));
      return;
    }
    const step = Number(box.dataset.step);
    play.results[step] = box.value;
    keep();
    const next = table.querySelectorAll(".nz-step")[step + 1];
    if (next) next.querySelector(".nz-num").textContent = box.value || "…";
    showButtons(table, formOf(table));
  });

  const OPERATIONS = {
    "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => a / b,
  };

  // The steps typed before the first wrong one, which the server has just
  // named: the pupil types again from there, not the steps already right.
  function rightSteps(table, saved) {
    const numbers = saved.picked.map((id) => Number(cardButton(table, id).dataset.number));
    const right = (a, op, b, typed) => OPERATIONS[op] && OPERATIONS[op](a, b) === Number(typed);
    if (saved.steps && saved.steps.length) {
      const kept = [];
      const at = (p) => (p < numbers.length ? numbers[p] : Number(kept[p - numbers.length].result));
      for (const step of saved.steps) {
        if (!right(at(step.a), step.op, at(step.b), step.result)) break;
        kept.push(step);
      }
      return { results: [], steps: kept };
    }
    const results = [];
    let left = numbers[0];
    for (let step = 0; step < (saved.results || []).length; step++) {
      if (!right(left, saved.ops[step], numbers[step + 1], saved.results[step])) break;
      results.push(saved.results[step]);
      left = Number(saved.results[step]);
    }
    return { results, steps: [] };
  }

  // A new table page: start empty, or bring back the play the server refused
  // (same version: all the pupil typed) or found a wrong result in (the next
  // version, retrying: up to the wrong step), or the play being built on this
  // board before a reload or a redraw.
  function setUp() {
    const table = document.querySelector("#table.nz");
    if (!table) return;
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    const version = Number(table.dataset.version);
    const draft = window.numboDraft && window.numboDraft.read("nambarz");
    play = fresh(table);
    if (draft && formOf(table) && draft.picked.every((id) => cardButton(table, id))) {
      play = { ...play, ...draft };
    }
    const refused = saved && saved.version === version;
    if (saved && saved.table === table.dataset.table && formOf(table) &&
        (refused || (table.dataset.retrying && saved.version + 1 === version))) {
      const inHand = saved.picked.every((id) => cardButton(table, id));
      if (inHand) {
        const typed = refused
          ? { results: saved.results || [], steps: saved.steps || [] }
          : rightSteps(table, saved);
        play = { ...fresh(table), picked: saved.picked, ops: saved.ops, ...typed };
      }
    }
    sessionStorage.removeItem(KEY);
    render(table);
  }
  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "table") setUp();
  });
})();
