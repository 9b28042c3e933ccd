// NUM-X: tapping cards of the hand (and a face-up score card taken back) to
// lay them together, or one action card to see whom it may aim at; tapping
// cards a Malus asks for; the hand-out's running count. The server checks
// every move again. A poll or a push redraws the table: the cards tapped and
// the numbers typed come back when the same cards and questions are there.
(() => {
  let picked = []; // [{ card, row }] in the order tapped; row: index in the score row or null
  let kept = { table: null, version: null, picked: [] };
  const typed = {}; // data-keep key -> what the pupil typed

  const tableOf = (el) => el && el.closest("#table.nx");
  const buttons = (table) => [...table.querySelectorAll(".xcard[data-pick]")];
  const isAction = (p) => p.kind && !["number", "joker", "infini", "numx"].includes(p.kind);
  const same = (a, b) => a.card === b.card && a.row === b.row;

  function pickOf(button) {
    return {
      card: button.dataset.card || "",
      row: button.dataset.pick === "row" ? Number(button.dataset.row) : null,
      kind: button.dataset.kind || "",
    };
  }

  function render(table) {
    buttons(table).forEach((button) => {
      const on = picked.some((p) => same(p, pickOf(button)));
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const actions = picked.filter(isAction);
    const oneAction = picked.length === 1 && actions.length === 1 ? actions[0] : null;
    const trick = table.querySelector("form.nx-trick-form");
    if (trick) {
      trick.hidden = picked.length === 0 || actions.length > 0;
      trick.elements.cards.value = picked.map((p) => p.card).join(",");
      const fromRow = picked.find((p) => p.row !== null);
      trick.elements.from_row.value = fromRow ? String(fromRow.row) : "";
      const joker = trick.querySelector("[data-joker]");
      if (joker) {
        const onlyJokers = picked.length > 0 && picked.every((p) => p.kind === "joker");
        joker.hidden = !onlyJokers;
        joker.querySelectorAll("input").forEach((input) => { input.disabled = !onlyJokers; });
      }
    }
    table.querySelectorAll("form.nx-action-form").forEach((form) => {
      form.hidden = !(oneAction && form.dataset.action === oneAction.card &&
        form.dataset.fromRow === (oneAction.row === null ? "" : String(oneAction.row)));
    });
    const hint = table.querySelector("[data-hint]");
    if (hint) hint.hidden = picked.length > 0;
    const malus = table.querySelector("form.nx-malus-form");
    if (malus) {
      const count = Number(malus.dataset.count);
      if (malus.dataset.malus === "discard") {
        malus.elements.cards.value = picked.map((p) => p.card).join(",");
      } else {
        malus.elements.indices.value = picked.map((p) => p.row).join(",");
      }
      malus.querySelector("button[type=submit]").disabled = picked.length !== count;
    }
    kept = { table: table.dataset.table, version: table.dataset.version, picked };
    if (window.numboDraft) window.numboDraft.save("numx", picked);
  }

  function tap(table, button) {
    const pick = pickOf(button);
    if (button.dataset.must && picked.some((p) => same(p, pick))) return; // the drawn card stays in
    if (picked.some((p) => same(p, pick))) {
      picked = picked.filter((p) => !same(p, pick));
    } else {
      // An action card goes alone, and only one score card may be taken back.
      if (isAction(pick) || picked.some(isAction)) picked = picked.filter((p) => table
        .querySelector(`.xcard[data-must][data-card="${p.card}"]`));
      if (pick.row !== null && table.dataset.task !== "malus_remove") {
        picked = picked.filter((p) => p.row === null);
      }
      picked.push(pick);
    }
    render(table);
  }

  function counted(form) {
    // The hand-out: how many cards go, and to whom, against the limits.
    const out = form.querySelector("[data-given]");
    if (!out) return;
    const given = {};
    let total = 0;
    form.querySelectorAll("input[type=radio][name^='to-']:checked").forEach((input) => {
      if (input.value === "") return;
      total += 1;
      given[input.value] = (given[input.value] || 0) + 1;
    });
    const min = Number(form.dataset.min);
    const max = Number(form.dataset.max);
    const most = Math.max(0, ...Object.values(given));
    const cap = total > 1 ? Math.floor(total / 2) : 1;
    const say = (text) => text.replace("{n}", total).replace("{min}", min).replace("{max}", max)
      .replace("{cap}", cap);
    let why = "";
    if (total < min) why = say(form.dataset.tFew);
    else if (total > max) why = say(form.dataset.tMany);
    else if (most > cap) why = say(form.dataset.tHalf);
    out.textContent = say(form.dataset.tGiven) + (why ? " " + why : " ✓");
    out.classList.toggle("bad", why !== "");
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest(".xcard[data-pick]");
    const table = tableOf(button);
    if (button && table && !button.disabled) {
      tap(table, button);
    }
  });

  document.addEventListener("change", (event) => {
    const form = event.target.closest(".nx-distribute form");
    if (form) counted(form);
  });

  document.addEventListener("input", (event) => {
    const box = event.target.closest("input[data-keep]");
    if (box && tableOf(box)) {
      box.value = box.value.replace(/\D/g, "").slice(0, box.maxLength > 0 ? box.maxLength : 4);
      typed[box.dataset.keep] = box.value;
    }
  });

  document.addEventListener("submit", (event) => {
    // Once sent, a typed answer is not brought back into the next question.
    event.target.querySelectorAll("input[data-keep]").forEach((box) => {
      delete typed[box.dataset.keep];
    });
  });

  function setUp() {
    const table = document.querySelector("#table.nx");
    if (!table) return;
    const here = buttons(table).map(pickOf);
    // The cards tapped on this version, else on this board before a reload
    // or another player's move (drafts.js).
    const draft = window.numboDraft && window.numboDraft.read("numx");
    let before = draft || [];
    if (kept.table === table.dataset.table && kept.version === table.dataset.version) before = kept.picked;
    picked = before.filter((p) => here.some((h) => same(h, p)));
    table.querySelectorAll(".xcard[data-must][data-pick]").forEach((button) => {
      const pick = pickOf(button);
      if (!picked.some((p) => same(p, pick))) picked.unshift(pick);
    });
    table.querySelectorAll("input[data-keep]").forEach((box) => {
      if (!box.value && typed[box.dataset.keep]) box.value = typed[box.dataset.keep];
    });
    table.querySelectorAll(".nx-distribute form").forEach(counted);
    render(table);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "table") setUp();
  });
})();
