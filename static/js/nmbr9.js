// NMBR 9: putting the card's tile on your stack by touch.
//
// Tap (or drag) on the stack: the tile follows the finger and its preview says
// at once whether it fits there, on which level, or why not. "Turn" turns it a
// quarter, the arrows move it one square, "Place it" sends the move (the
// server checks it again). Whether a spot is legal comes from the page's list
// of legal placements (the engine's, they are the rules); the reasons are only
// words for a spot that is not in the list. A redrawn table (another player
// placed, a refusal) keeps the tile where it was for the same card, and so
// does a reload (drafts.js).
(() => {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  let memory = null; // {key, rotation, x, y}

  const cellKey = (x, y) => x + "," + y;
  const shapeKey = (cells) => cells.map((c) => cellKey(c[0], c[1])).sort().join(";");

  function setup() {
    const table = document.getElementById("table");
    if (!table || table.dataset.game !== "nmbr9" || table.dataset.ready) return;
    table.dataset.ready = "1";
    const dataNode = document.getElementById("n9-place-data");
    const board = table.querySelector("svg.stack-board.placing");
    if (!dataNode || !board) return;
    const data = JSON.parse(dataNode.textContent);
    const texts = data.texts;
    const preview = board.querySelector("[data-preview]");
    const hint = table.querySelector("[data-hint]");
    const form = table.querySelector("form.n9-place-form");
    const button = form.querySelector("[data-place]");
    const cardTiles = table.querySelectorAll(".n9-card-tile");
    const size = data.board;

    const shapes = data.shapes;
    // 0 and 8 look the same after half a turn: the legal list names the first rotation.
    const canonical = shapes.map((cells, r) => {
      const key = shapeKey(cells);
      for (let q = 0; q < r; q++) if (shapeKey(shapes[q]) === key) return q;
      return r;
    });
    const legal = new Map();
    for (const [r, x, y, level] of data.legal) legal.set(r + ":" + cellKey(x, y), level);
    const levels = []; // per level: cell -> index of the tile covering it
    data.stack.forEach((tile, index) => {
      while (levels.length <= tile.level) levels.push(new Map());
      for (const [x, y] of tile.cells) levels[tile.level].set(cellKey(x, y), index);
    });
    const height = (x, y) => {
      for (let l = levels.length - 1; l >= 0; l--) if (levels[l].has(cellKey(x, y))) return l + 1;
      return 0;
    };
    const extent = (r) => [
      Math.max(...shapes[r].map((c) => c[0])) + 1,
      Math.max(...shapes[r].map((c) => c[1])) + 1,
    ];

    let tile = { rotation: 0, x: null, y: null };
    // After a reload, the tile as it was turned and moved on this board (drafts.js).
    if (!memory && window.numboDraft) memory = window.numboDraft.read("nmbr9");
    if (memory && memory.key === data.key) tile = { ...memory };

    function clamp() {
      const [w, h] = extent(tile.rotation);
      tile.x = Math.min(Math.max(tile.x, 0), size - w);
      tile.y = Math.min(Math.max(tile.y, 0), size - h);
    }

    function judge(cells) {
      // The tile lands on the highest tile under it.
      let level = 0;
      for (const [x, y] of cells) level = Math.max(level, height(x, y));
      const found = legal.get(canonical[tile.rotation] + ":" + cellKey(tile.x, tile.y));
      if (found !== undefined) return { ok: true, level: found };
      if (cells.some(([x, y]) => x < 0 || y < 0 || x >= size || y >= size)) {
        return { ok: false, level, why: "off_board" };
      }
      if (level > 0) {
        if (cells.some(([x, y]) => height(x, y) < level)) return { ok: false, level, why: "overhang" };
        const under = new Set(cells.map(([x, y]) => levels[level - 1].get(cellKey(x, y))));
        if (under.size < 2) return { ok: false, level, why: "one_tile_below" };
      }
      const here = levels[level];
      if (here && here.size) {
        if (cells.some(([x, y]) => here.has(cellKey(x, y)))) return { ok: false, level, why: "overlap" };
        const touches = cells.some(([x, y]) =>
          [[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dx, dy]) => here.has(cellKey(x + dx, y + dy))));
        if (!touches) return { ok: false, level, why: "not_touching" };
      }
      return { ok: false, level, why: "no" };
    }

    function element(name, attributes) {
      const node = document.createElementNS(SVG, name);
      for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
      return node;
    }

    function draw() {
      memory = { key: data.key, ...tile };
      if (window.numboDraft) window.numboDraft.save("nmbr9", memory);
      cardTiles.forEach((svg) => {
        svg.style.display = Number(svg.dataset.rotation) === tile.rotation ? "" : "none";
      });
      preview.replaceChildren();
      if (tile.x === null) {
        hint.textContent = texts.tap;
        hint.className = "n9-hint";
        button.disabled = true;
        return;
      }
      const cells = shapes[tile.rotation].map(([dx, dy]) => [tile.x + dx, tile.y + dy]);
      const verdict = judge(cells);
      const set = new Set(cells.map(([x, y]) => cellKey(x, y)));
      let surface = "";
      let outline = "";
      for (const [x, y] of cells) {
        surface += `M${x} ${y}h1v1h-1z`;
        if (!set.has(cellKey(x, y - 1))) outline += `M${x} ${y}h1`;
        if (!set.has(cellKey(x + 1, y))) outline += `M${x + 1} ${y}v1`;
        if (!set.has(cellKey(x, y + 1))) outline += `M${x} ${y + 1}h1`;
        if (!set.has(cellKey(x - 1, y))) outline += `M${x} ${y}v1`;
      }
      const colour = verdict.ok ? "#1e9e52" : "#d0342c";
      preview.setAttribute("class", "preview " + (verdict.ok ? "ok" : "bad"));
      preview.append(
        element("path", { d: surface, fill: colour, "fill-opacity": ".45" }),
        element("path", {
          d: outline, fill: "none", stroke: colour, "stroke-width": ".14",
          "stroke-dasharray": verdict.ok ? "none" : ".3 .18", "stroke-linecap": "square",
        }),
      );
      const mx = cells.reduce((s, c) => s + c[0], 0) / cells.length;
      const my = cells.reduce((s, c) => s + c[1], 0) / cells.length;
      const middle = cells.reduce((best, c) =>
        (c[0] - mx) ** 2 + (c[1] - my) ** 2 < (best[0] - mx) ** 2 + (best[1] - my) ** 2 ? c : best);
      const label = element("text", {
        x: middle[0] + 0.5, y: middle[1] + 0.5, dy: ".36em", "text-anchor": "middle",
        "font-size": ".9", "font-weight": "700", fill: "#fff", stroke: colour, "stroke-width": ".05",
        "font-family": "Andika, system-ui, sans-serif",
      });
      label.textContent = verdict.ok ? data.digit : "✗";
      preview.append(label);
      const where = verdict.level === 0 ? texts.level0 : texts.level.replace("%(level)s", verdict.level);
      hint.textContent = verdict.ok ? `✓ ${texts.fits} ${where}.` : `✗ ${texts[verdict.why] || texts.no}`;
      hint.className = "n9-hint " + (verdict.ok ? "ok" : "bad");
      hint.dataset.verdict = verdict.ok ? "ok" : verdict.why;
      form.elements.rotation.value = tile.rotation;
      form.elements.x.value = tile.x;
      form.elements.y.value = tile.y;
      form.elements.level.value = verdict.level;
      button.disabled = !verdict.ok;
    }

    function centreOn(px, py) {
      const [w, h] = extent(tile.rotation);
      const x = Math.round(px - w / 2);
      const y = Math.round(py - h / 2);
      if (x === tile.x && y === tile.y) return;
      tile.x = x;
      tile.y = y;
      clamp();
      draw();
    }

    function pointerCell(event) {
      const matrix = board.getScreenCTM();
      if (!matrix) return null;
      return new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    }

    let dragging = false;
    board.addEventListener("pointerdown", (event) => {
      const point = pointerCell(event);
      if (!point) return;
      dragging = true;
      board.setPointerCapture(event.pointerId);
      event.preventDefault();
      tile.x = null; // a new tap always redraws
      centreOn(point.x, point.y);
    });
    board.addEventListener("pointermove", (event) => {
      if (!dragging) return;
      const point = pointerCell(event);
      if (point) centreOn(point.x, point.y);
    });
    const stop = () => { dragging = false; };
    board.addEventListener("pointerup", stop);
    board.addEventListener("pointercancel", stop);

    function turn() {
      if (tile.x === null) {
        tile.rotation = (tile.rotation + 1) % 4;
        draw();
        return;
      }
      const [w, h] = extent(tile.rotation);
      const cx = tile.x + w / 2;
      const cy = tile.y + h / 2;
      tile.rotation = (tile.rotation + 1) % 4;
      const [w2, h2] = extent(tile.rotation);
      tile.x = Math.round(cx - w2 / 2);
      tile.y = Math.round(cy - h2 / 2);
      clamp();
      draw();
    }

    function nudge(dx, dy) {
      if (tile.x === null) {
        const [w, h] = extent(tile.rotation);
        tile.x = Math.floor((size - w) / 2);
        tile.y = Math.floor((size - h) / 2);
      } else {
        tile.x += dx;
        tile.y += dy;
      }
      clamp();
      draw();
    }

    table.querySelector("[data-turn]").addEventListener("click", turn);
    table.querySelectorAll("[data-nudge]").forEach((key) => {
      key.addEventListener("click", () => {
        const [dx, dy] = key.dataset.nudge.split(",").map(Number);
        nudge(dx, dy);
      });
    });
    board.addEventListener("keydown", (event) => {
      const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
      if (moves[event.key]) {
        event.preventDefault();
        nudge(...moves[event.key]);
      } else if (event.key === "r" || event.key === "R") {
        event.preventDefault();
        turn();
      } else if (event.key === "Enter" || event.key === " ") {
        // Space places it as Enter does, as on a button (and scrolls nothing).
        event.preventDefault();
        if (!button.disabled) button.click();
      }
    });
    draw();
  }

  document.addEventListener("htmx:load", setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
