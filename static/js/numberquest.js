// Number Quest: a calculation's steps typed on the tablet. A step the page can
// vouch for (its result the right whole number, and numbers still to join) is
// kept here and shown at once, without a request. The last step, or the first
// one the page cannot vouch for (a wrong result, a step the rules may refuse),
// goes to the server with the kept ones before it ("steps"), and the engine
// rules on each in turn, as if they had come one by one. The page never says
// a result is wrong: that is the server's to say, with the right answer when
// the rules show it. A refusal redraws the same version of the table: the
// kept steps come back (sessionStorage keeps them across a reload too).
// When the last step makes a number whose square is free, the pupil taps the
// square here too, and the steps go with the tap as one move. Steps kept when
// the pupil taps "I can't make a number" go with it.
// Only where the pupil is alone at the table: where others watch, each step
// goes to the server and reaches their tablets as it is typed. Without script
// the form posts each step.
(() => {
  const KEY = "numbo.numberquest.steps";
  const SYMBOLS = { "+": "+", "-": "−", "*": "×", "/": "÷" };
  const MAX_MS = 10 * 60 * 1000; // the engine counts no step as longer (MAX_STEP_MS)
  const RETRY_MS = 2000;
  // { at: "move url @ version", steps: [{left, op, right, result, ms, made}] }: made
  // marks a last step whose number waits for the tap on its square.
  let kept = null;
  let since = performance.now(); // when the pupil started the step being typed
  let placingNow = false; // the step form is being sent by a tap on a square
  let sendingKept = false; // the steps kept at the game's end are on their way

  // The step form of a table, if its page has one.
  const stepFormIn = (root) => {
    const type = root && root.querySelector("form.calc input[name=type][value^=step]");
    return type ? type.form : null;
  };
  // The page marks the form when the steps may wait here: the pupil is alone
  // at the table (or with the computer), so nobody watches them come. Steps
  // already kept stay here until sent, though a pupil sat down meanwhile.
  const keepsSteps = (form) =>
    form.dataset.stepsOnTablet !== undefined || read(form).steps.length > 0;
  const placeOf = (form) => {
    const table = form.closest("#table");
    return `${form.getAttribute("action")}@${table ? table.dataset.version : ""}`;
  };
  const valueOf = (tile) => Number(tile.split("|")[0]);

  // What sessionStorage keeps ({at, steps, id}), or null.
  function fromStorage() {
    try {
      return JSON.parse(sessionStorage.getItem(KEY) || "null");
    } catch (error) {
      return null;
    }
  }

  function read(form) {
    if (kept && kept.at === placeOf(form)) return kept;
    const stored = fromStorage();
    kept = stored && stored.at === placeOf(form) ? stored : { at: placeOf(form), steps: [] };
    // Another board's steps were sent with it or given up: not to be sent again.
    if (stored && kept !== stored) forget();
    return kept;
  }

  function forget() {
    try {
      sessionStorage.removeItem(KEY);
    } catch (error) {
      // Nothing kept to forget.
    }
  }

  function save() {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(kept));
    } catch (error) {
      // A private window may refuse: the steps live as long as the page.
    }
  }

  // The right result of one step when it is a whole number of at least zero
  // (the only ones a pupil can type), else null: the server rules on the rest.
  function exact(left, op, right) {
    if (op === "+") return left + right;
    if (op === "*") return left * right;
    if (op === "-") return left >= right ? left - right : null;
    if (op === "/") return right !== 0 && left % right === 0 ? left / right : null;
    return null;
  }

  // The table as the server drew it, then each kept step: its two numbers
  // taken away and its result added as a new one, the step listed, its dice spent.
  function redraw(form) {
    const table = form.closest("#table");
    const had = form.contains(document.activeElement) ? document.activeElement : null;
    const undoing = had && had.matches("[data-undo-local]");
    const steps = read(form).steps;
    drawTiles(form, steps);
    const list = listSteps(table, form, steps);
    spendDice(table, steps);
    const undo = form.querySelector("[data-undo-local]");
    if (undo) undo.hidden = steps.length === 0;
    // The server's Undo and Start again (steps it holds, after a second try)
    // wait until the steps kept here are undone: one Undo at a time.
    // Once the number is made, only its square (or Undo) is left, as the
    // server's own place phase has it: no "I can't make a number".
    const made = placing(form);
    table.querySelectorAll(".actions input[name=type]").forEach((type) => {
      if (type.value === "undo" || type.value === "clear") type.form.hidden = steps.length > 0;
      if (type.value === "cant") type.form.hidden = made !== null;
    });
    sayLastStep(table, form, list);
    offerSquare(table, form, made);
    if (had && !had.isConnected) focusNext(table, form, undoing);
  }

  // The control that had the focus was drawn again (Check, Undo): the focus
  // goes on to what comes next, the square to tap or the first number (Undo
  // again while there are steps to undo), not back to the top of the page.
  function focusNext(table, form, undoing) {
    const undo = form.querySelector("[data-undo-local]");
    const next = table.querySelector("svg.board g.sq[data-local-tap]") ||
      (undoing && !undo.hidden ? undo : form.querySelector(".tiles input[type=radio]"));
    if (next) next.focus();
  }

  // The number the kept steps made, when the last of them joined the last
  // numbers: only its square is left to tap.
  function placing(form) {
    const steps = read(form).steps;
    const last = steps[steps.length - 1];
    // A page that does not say how to offer the square (a timed turn) never had it kept.
    return last && last.made && form.dataset.made !== undefined ? last.result : null;
  }

  // The square of that number becomes a button, as the server draws it for
  // the place phase, and the page says so; any other square is as drawn.
  function offerSquare(table, form, number) {
    form.classList.toggle("placing", number !== null);
    table.querySelectorAll(".prompt[data-local]").forEach((line) => line.remove());
    table.querySelectorAll("svg.board g.sq[data-local-tap]").forEach((square) => {
      square.classList.remove("tap");
      square.setAttribute("role", square.dataset.wasRole);
      square.setAttribute("aria-label", square.dataset.wasLabel);
      square.removeAttribute("tabindex");
      delete square.dataset.localTap;
      delete square.dataset.next;
    });
    if (number === null) return;
    const square = Array.from(table.querySelectorAll("svg.board g.sq")).find((one) => {
      const label = one.querySelector("text:not(.token-label)");
      return label && label.textContent === String(number);
    });
    if (!square) return;
    Object.assign(square.dataset, {
      wasRole: square.getAttribute("role") || "img",
      wasLabel: square.getAttribute("aria-label") || "",
      localTap: String(number),
      next: "",
    });
    square.classList.add("tap");
    square.setAttribute("role", "button");
    square.setAttribute("tabindex", "0");
    square.setAttribute("aria-label", form.dataset.square.replace("%(n)s", number));
    const prompt = document.createElement("p");
    prompt.className = "prompt";
    prompt.dataset.local = "";
    prompt.textContent = form.dataset.made.replace(/%\(n\)s/g, number);
    form.before(prompt);
  }

  // The tap on that square: the kept steps and the square, as one move.
  function place(form) {
    const number = form ? placing(form) : null;
    if (number === null) return;
    sendKept(form, read(form).steps);
    form.append(hidden("square", number));
    form.querySelector("input[name=type]").value = "steps";
    // The fields of a step being typed are not part of it.
    form.querySelectorAll("fieldset input, .answer input").forEach((field) => { field.disabled = true; });
    placingNow = true;
    form.requestSubmit();
  }

  function drawTiles(form, steps) {
    // Set again from the page's own markup: no number picked, no result typed.
    if (!form.dataset.drawn) form.dataset.drawn = form.innerHTML;
    form.innerHTML = form.dataset.drawn;
    const [lefts, rights] = form.querySelectorAll("fieldset.tiles:not(.ops)");
    steps.forEach((step, index) => {
      for (const used of [step.left, step.right]) {
        form.querySelectorAll(`input[value="${CSS.escape(used)}"]`).forEach((box) => box.closest("label").remove());
      }
      lefts.append(tile("left", step.result, index));
      rights.append(tile("right", step.result, index));
    });
  }

  function tile(side, number, index) {
    const label = document.createElement("label");
    label.className = "tile";
    const box = document.createElement("input");
    Object.assign(box, { type: "radio", name: side, value: `${number}|local:${index}`, required: true });
    const shown = document.createElement("span");
    shown.textContent = String(number);
    label.append(box, shown);
    return label;
  }

  function listSteps(table, form, steps) {
    table.querySelectorAll(".steps li[data-local]").forEach((line) => line.remove());
    let list = table.querySelector("ul.steps");
    if (!list && steps.length) {
      list = document.createElement("ul");
      list.className = "steps";
      form.before(list);
    }
    for (const step of steps) {
      const line = document.createElement("li");
      line.dataset.local = "";
      line.textContent = `${valueOf(step.left)} ${SYMBOLS[step.op]} ${valueOf(step.right)} = ${step.result}`;
      list.append(line);
    }
    return list;
  }

  // A die whose number went into a kept step looks spent, as the server draws
  // it, and a screen reader says so.
  function spendDice(table, steps) {
    const dice = table.querySelectorAll(".dice svg.die");
    dice.forEach((die) => {
      if (die.dataset.localUsed === undefined) return;
      die.classList.remove("used");
      delete die.dataset.localUsed;
    });
    for (const step of steps) {
      for (const used of [step.left, step.right]) {
        const found = /\|die:(\d+)$/.exec(used);
        const die = found && dice[Number(found[1])];
        if (!die || die.classList.contains("used")) continue;
        die.classList.add("used");
        die.dataset.localUsed = "";
      }
    }
    const row = table.querySelector(".dice[data-said]");
    if (row) {
      const values = row.dataset.values.split(",");
      const said = Array.from(dice, (die, index) =>
        `${values[index]}${die.classList.contains("used") ? ` (${row.dataset.used})` : ""}`);
      row.setAttribute("aria-label", `${row.dataset.said}: ${said.join(", ")}`);
    }
  }

  // "Right: …" for the last step kept, as the server says it of its own.
  function sayLastStep(table, form, list) {
    table.querySelectorAll(".feedback[data-local]").forEach((line) => line.remove());
    const last = list && list.lastElementChild;
    if (!last || last.dataset.local === undefined) return;
    const said = document.createElement("p");
    said.className = "feedback";
    said.dataset.local = "";
    said.setAttribute("role", "status");
    said.textContent = form.dataset.right.replace("%(step)s", last.textContent);
    list.before(said);
  }

  function hidden(name, value) {
    const box = document.createElement("input");
    Object.assign(box, { type: "hidden", name, value: String(value) });
    box.dataset.sent = "";
    return box;
  }

  // Each kept step's fields, in order, in a box the form sends first.
  function sendKept(form, steps) {
    form.querySelectorAll("[data-sent]").forEach((box) => box.remove());
    const before = document.createElement("div");
    before.dataset.sent = "";
    for (const step of steps) {
      for (const name of ["left", "op", "right", "result", "ms"]) before.append(hidden(name, step[name]));
    }
    form.prepend(before);
  }

  // "I can't make a number" after steps kept here: they are the pupil's work,
  // and go with it (the server rules on them first).
  document.addEventListener("htmx:confirm", (event) => {
    const form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.querySelector("input[name=type][value=cant]")) return;
    const stepForm = stepFormIn(form.closest("#table"));
    sendKept(form, stepForm ? read(stepForm).steps : []);
  });

  document.addEventListener("htmx:confirm", (event) => {
    const form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || stepFormIn(form.closest("#table")) !== form) return;
    if (placingNow) {
      placingNow = false; // its fields are set: on its way
      return;
    }
    if (!keepsSteps(form)) return;
    const left = form.querySelector("input[name=left]:checked");
    const right = form.querySelector("input[name=right]:checked");
    const op = form.querySelector("input[name=op]:checked");
    const result = form.elements.result;
    if (!left || !right || !op || !/^\d{1,7}$/.test(result.value)) return; // the server says what is missing
    const ms = Math.min(Math.round(performance.now() - since), MAX_MS);
    const steps = read(form).steps;
    const numbers = form.querySelectorAll("fieldset.tiles:not(.ops)")[0].querySelectorAll("input[name=left]").length;
    const value = left.value === right.value ? null : exact(valueOf(left.value), op.value, valueOf(right.value));
    const isRight = value !== null && value === Number(result.value);
    // The last numbers joined: kept too when the number's square is free, to
    // be tapped here (the page knows the free squares; the server rules on the rest).
    const made = numbers === 2 && form.dataset.free !== undefined &&
      form.dataset.free.split(",").includes(String(value));
    if (isRight && (numbers > 2 || made)) {
      event.preventDefault();
      steps.push({ left: left.value, op: op.value, right: right.value, result: value, ms, made });
      save();
      redraw(form);
      since = performance.now();
      return;
    }
    // To the server: the kept steps, then this one, each field once per step.
    sendKept(form, steps);
    form.append(hidden("ms", ms));
    form.querySelector("input[name=type]").value = "steps";
  });

  // A tap (or Enter) on the square offered above.
  function tappedSquare(event) {
    const square = event.target.closest && event.target.closest("svg.board g.sq[data-local-tap]");
    if (!square) return false;
    place(stepFormIn(square.closest("#table")));
    return true;
  }
  document.addEventListener("keyup", (event) => {
    if (event.key === "Enter" || event.key === " ") tappedSquare(event);
  });

  document.addEventListener("click", (event) => {
    if (tappedSquare(event)) return;
    const undo = event.target.closest("[data-undo-local]");
    const form = undo && undo.form;
    if (!form) return;
    read(form).steps.pop();
    save();
    redraw(form);
  });

  // The teacher ended the game while steps waited here: they are the pupil's
  // work, and go to the server as evidence (services._keep_after_end; the game
  // stays over). Under the id they are kept with, so a second sending (a
  // reload before the answer) is the same tap; forgotten once answered.
  function sendKeptAfterEnd(root) {
    const table = root && (root.id === "table" ? root : root.querySelector("#table"));
    const url = table && table.dataset.ended;
    if (!url || sendingKept) return;
    const stored = fromStorage();
    if (!stored || !stored.steps || !stored.steps.length) return;
    const [place, version] = stored.at.split("@");
    if (place !== url) return;
    if (!stored.id) {
      stored.id = Array.from(crypto.getRandomValues(new Uint8Array(16)),
        (byte) => byte.toString(16).padStart(2, "0")).join("");
      kept = stored;
      save();
    }
    const body = new URLSearchParams({ type: "kept", version, move_id: stored.id });
    for (const step of stored.steps) {
      for (const name of ["left", "op", "right", "result", "ms"]) body.append(name, step[name]);
    }
    let headers = {};
    try {
      headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    } catch (error) {
      headers = {};
    }
    sendingKept = true;
    let again = false;
    fetch(url, {
      method: "POST", body, credentials: "same-origin", headers: { ...headers, "HX-Request": "true" },
    }).then((answer) => {
      // No answer yet (the wifi, a proxy while the server restarts): again in
      // a moment, as connection.js does for a move. A server error: kept for
      // the next time the page is drawn. Any other answer (recorded, or
      // refused for good) ends it.
      if (answer.status >= 502) {
        again = true;
        return;
      }
      if (answer.status >= 500) return;
      kept = null;
      forget();
      // The answer says the steps count: shown in place of the ended page.
      return answer.text().then((html) => {
        const shown = document.getElementById("table");
        if (!answer.ok || !html || !shown || !window.htmx) return;
        document.dispatchEvent(new CustomEvent("numbo:own-answer"));
        htmx.swap(shown, html, { swapStyle: "outerHTML" });
      });
    }).catch(() => { again = true; }).finally(() => {
      sendingKept = false;
      if (again) setTimeout(() => sendKeptAfterEnd(document), RETRY_MS);
    });
  }

  // A new table drawn (a move's answer, a poll, a reload): the steps kept for
  // this version of it come back; any other version's are forgotten.
  function restore(root) {
    const form = stepFormIn(root);
    since = performance.now();
    if (form && read(form).steps.length) redraw(form);
    else if (!form) sendKeptAfterEnd(root);
  }
  document.addEventListener("DOMContentLoaded", () => restore(document));
  document.addEventListener("htmx:load", (event) => restore(event.detail.elt));
})();
