// Typed work survives a reload. What a pupil typed or chose at their table and
// has not sent (a step's numbers and result, a sum, a score, the cards tapped,
// a tile turned) is kept in sessionStorage under the table, the pupil and the
// board it was made on: the table's version, or where the page names one the
// pupil's scene (what their move rests on: games.pages.base.Presenter.scene,
// the forms' "seen"), which other players' moves leave as it is. The seat is
// the pupil's at that table (on a shared tablet, the one whose turn the
// version is). It comes back only onto that board for that pupil; a move that
// counts forgets it (connection.js says "numbo:arrived"), and a page of
// another pupil, or of none, forgets everything this tab kept for the last.
// The fields of the table's forms are kept here; a game's own work goes
// through numboDraft.save(part, value) and numboDraft.read(part).
(() => {
  const KEY = "numbo.draft";
  const PUPIL_KEY = "numbo.pupil";
  // Fields that are the page's, not the pupil's (team.js keeps "answering").
  const OWN = new Set(["csrfmiddlewaretoken", "version", "move_id", "seen", "type", "answering"]);

  const pupil = () => document.body.dataset.pupil || "";

  function stored() {
    try {
      return JSON.parse(sessionStorage.getItem(KEY) || "null");
    } catch (error) {
      return null;
    }
  }

  function write(draft) {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(draft));
    } catch (error) {
      // A private window may refuse: the work lives as long as the page.
    }
  }

  function forget() {
    try {
      sessionStorage.removeItem(KEY);
    } catch (error) {
      // Nothing kept.
    }
  }

  // Where the draft belongs: "move url|pupil|board", or null on a page where
  // this pupil has nothing to send (a page they watch, the teacher's).
  function place() {
    const table = document.getElementById("table");
    const form = table && table.querySelector("form[action$='/move/']");
    if (!form || !pupil()) return null;
    const seen = form.querySelector("input[name=seen]");
    const board = seen && seen.value ? `scene:${seen.value}` : `version:${table.dataset.version}`;
    return [form.getAttribute("action"), pupil(), board].join("|");
  }

  function save(part, value) {
    const at = place();
    if (!at) return;
    const draft = stored();
    const parts = draft && draft.at === at ? draft.parts : {};
    parts[part] = value;
    write({ at, parts });
  }

  function read(part) {
    const at = place();
    const draft = stored();
    if (!at || !draft || draft.at !== at) return null;
    return draft.parts[part] ?? null;
  }

  // A form is known by its class and what it acts on (a NUM-X action card's
  // form, say): a page of the same board draws the same forms.
  const formName = (form) =>
    [form.getAttribute("class") || "", form.dataset.action || "", form.dataset.fromRow || ""].join(":");

  const typed = (box) => box.name && !OWN.has(box.name) && box.type !== "hidden" &&
    box.type !== "submit" && box.type !== "button" && !box.disabled;

  function fieldsOf(table) {
    const fields = {};
    table.querySelectorAll("form").forEach((form) => {
      for (const box of form.elements) {
        if (!typed(box)) continue;
        const key = `${formName(form)}|${box.name}`;
        if (box.type === "radio" || box.type === "checkbox") {
          if (box.checked) fields[key] = box.value;
        } else if (box.value !== "") {
          fields[key] = box.value;
        }
      }
    });
    return fields;
  }

  let pending = null;
  function snapshot() {
    clearTimeout(pending);
    // After the game's own scripts have answered the same event.
    pending = setTimeout(() => {
      const table = document.getElementById("table");
      if (table && place()) save("fields", fieldsOf(table));
    }, 0);
  }

  function restoreFields() {
    const table = document.getElementById("table");
    const fields = table && read("fields");
    if (!fields) return;
    table.querySelectorAll("form").forEach((form) => {
      for (const box of form.elements) {
        if (!typed(box)) continue;
        const saved = fields[`${formName(form)}|${box.name}`];
        if (saved === undefined) continue;
        if (box.type === "radio" || box.type === "checkbox") {
          if (box.value !== saved || box.checked) continue;
          box.checked = true;
          box.dispatchEvent(new Event("change", { bubbles: true }));
        } else if (box.value === "") {
          box.value = saved;
          box.dispatchEvent(new Event("input", { bubbles: true }));
        }
      }
    });
  }

  // A tab handed to another pupil (or signed out) keeps nothing of the last one's.
  function ownersOnly() {
    try {
      if (sessionStorage.getItem(PUPIL_KEY) === pupil()) return;
      Object.keys(sessionStorage).filter((key) => key.startsWith("numbo."))
        .forEach((key) => sessionStorage.removeItem(key));
      if (pupil()) sessionStorage.setItem(PUPIL_KEY, pupil());
    } catch (error) {
      // No storage: nothing kept to leak.
    }
  }

  window.numboDraft = { save, read, forget };
  ownersOnly();

  for (const kind of ["input", "change", "click"]) {
    document.addEventListener(kind, (event) => {
      if (event.target.closest && event.target.closest("#table")) snapshot();
    });
  }
  document.addEventListener("numbo:arrived", (event) => {
    if (["applied", "replayed"].includes(event.detail.status)) {
      clearTimeout(pending);
      forget();
    }
  });
  // Once the games' own scripts have drawn the page for the same event (a
  // Number Quest step form is drawn again from its markup).
  document.addEventListener("DOMContentLoaded", () => setTimeout(restoreFields, 0));
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "table") setTimeout(restoreFields, 0);
  });
})();
