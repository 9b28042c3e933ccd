// What changed on the table, said by a screen reader without the pupil looking
// for it: another player's move (the new lines of the table's log), the answer
// to the pupil's own move (a refusal, or the lines about it when the focus is
// elsewhere), the turn coming to the pupil, and the end of the game. One
// polite live region, outside #table (#announcer): every swap replaces what is
// inside #table, and a region swapped in whole is not read. Said only from
// what this pupil's page shows (its log, its note, its status, whether it is
// their turn), so it tells nothing the page does not: no card of another hand.
(() => {
  const MOST_LINES = 4; // a poll that brings a whole computer's turn says its last lines
  let seen = null; // what the table on screen says: {table, lines, yours, over}
  let own = false; // the next table swapped in answers the pupil's own move

  const textOf = (el) => el.textContent.replace(/\s+/g, " ").trim();

  function read(table) {
    return {
      table,
      lines: [...table.querySelectorAll(".log li")].map(textOf),
      yours: table.hasAttribute("data-your-turn"),
      over: table.hasAttribute("data-over"),
    };
  }

  // The log's new lines, newest first as the log shows them: those above the
  // point where the new log goes on as the old one began.
  function newLines(before, now) {
    for (let k = 0; k < now.length; k++) {
      const rest = now.slice(k);
      if (rest.length <= before.length && rest.every((line, i) => line === before[i])) {
        return now.slice(0, k);
      }
    }
    return now;
  }

  function say(sentence) {
    const region = document.getElementById("announcer");
    if (!region || !sentence) return;
    // Emptied first: the same sentence twice ("Your turn!") is said twice.
    region.textContent = "";
    setTimeout(() => { region.textContent = sentence; }, 100);
  }

  function answered(table) {
    const note = table.querySelector("[data-testid=note]");
    if (note) return [textOf(note)];
    const lines = [...table.querySelectorAll("[data-testid=feedback]")];
    const focused = document.activeElement;
    if (lines.some((line) => line === focused || line.contains(focused))) return [];
    return lines.map(textOf);
  }

  function changed() {
    const table = document.getElementById("table");
    if (!table || !seen || seen.table === table) {
      own = false;
      return;
    }
    const now = read(table);
    const said = own
      ? answered(table)
      : newLines(seen.lines, now.lines).slice(0, MOST_LINES).reverse();
    if (now.yours && !seen.yours) said.push(document.getElementById("announcer").dataset.yourTurn);
    // The end, as the status line says it: who won.
    const status = table.querySelector("[data-testid=status]");
    if (now.over && !seen.over && status) said.push(textOf(status));
    own = false;
    seen = now;
    say(said.filter(Boolean).join(" "));
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "post") own = true;
  });
  // A move kept while the wifi was down, or steps sent after the game's end,
  // come back without htmx's request: their pages say so.
  document.addEventListener("numbo:own-answer", () => { own = true; });
  // After the other scripts' own work on the new table: focus.js's moving the focus.
  document.addEventListener("htmx:afterSettle", () => setTimeout(changed, 0));
  document.addEventListener("DOMContentLoaded", () => {
    const table = document.getElementById("table");
    if (table) seen = read(table);
  });
})();
