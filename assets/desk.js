// innkeep front desk: small progressive enhancements; every page works without this file.
document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("[data-print]")) {
    b.addEventListener("click", () => window.print());
  }
});

// The room board: a stay's bar is moved to another room or night by dragging it, or with
// the keyboard (M picks it up, the arrow keys choose the room and first night, Enter puts it
// down, Escape cancels). Either way the board's hidden form posts the reservation's change
// form, so the server applies the same rules as the API and says any refusal in words.
// The listeners sit on the document: the board's day moves swap its content with htmx.
(() => {
  const DAY = 86400000;
  const addDays = (iso, n) => new Date(Date.parse(iso + "T00:00:00Z") + n * DAY).toISOString().slice(0, 10);
  const between = (a, b) => Math.round((Date.parse(b + "T00:00:00Z") - Date.parse(a + "T00:00:00Z")) / DAY);
  const board = () => document.querySelector("table.board");
  const days = () => [...board().querySelectorAll("thead th[data-day]")];
  const rooms = () => [...board().querySelectorAll("tr[data-room]")];
  const say = (text) => {
    const live = document.getElementById("board-live");
    if (live) live.textContent = text;
  };
  // The night under the pointer, from the day headings' columns.
  const dayAt = (x) => {
    const th = days().find((h) => {
      const r = h.getBoundingClientRect();
      return x >= r.left && x < r.right;
    });
    return th ? th.dataset.day : null;
  };
  // Posts the move of `bar` to room row `row`, its first night `arrival`.
  const move = (bar, row, arrival) => {
    const form = document.getElementById("board-move");
    if (!form || !row) return;
    const d = bar.dataset;
    const fields = { version: d.version, room_id: row.dataset.room };
    if (d.status === "confirmed") {
      fields.arrival = arrival;
      fields.departure = addDays(arrival, between(d.arrival, d.departure));
      fields.room_type_id = row.dataset.type;
    }
    const here = bar.closest("tr");
    if (here === row && (d.status !== "confirmed" || arrival === d.arrival)) return;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    form.action = "/reservations/" + d.id + "/change";
    form.submit();
  };

  let dragged = null;
  document.addEventListener("dragstart", (e) => {
    const bar = e.target.closest && e.target.closest("table.board a.movable");
    if (!bar) return;
    const grabbed = dayAt(e.clientX) || bar.dataset.arrival;
    dragged = { bar, offset: Math.max(0, between(bar.dataset.arrival, grabbed)) };
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", bar.dataset.id);
  });
  document.addEventListener("dragend", () => {
    dragged = null;
    for (const r of document.querySelectorAll("tr.drop")) r.classList.remove("drop");
  });
  document.addEventListener("dragover", (e) => {
    const row = dragged && e.target.closest && e.target.closest("table.board tr[data-room]");
    if (!row) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    for (const r of document.querySelectorAll("tr.drop")) if (r !== row) r.classList.remove("drop");
    row.classList.add("drop");
  });
  document.addEventListener("drop", (e) => {
    const row = dragged && e.target.closest && e.target.closest("table.board tr[data-room]");
    const day = row && dayAt(e.clientX);
    if (!day) return;
    e.preventDefault();
    move(dragged.bar, row, addDays(day, -dragged.offset));
  });

  // The keyboard's way: a target (room row, first night) marked on the board.
  let carried = null;
  const mark = (speak) => {
    for (const el of board().querySelectorAll(".target")) el.classList.remove("target");
    const row = rooms()[carried.row];
    const head = days()[carried.day];
    row.classList.add("target");
    head.classList.add("target");
    const cell = row.querySelector(`td[data-day="${head.dataset.day}"]`);
    if (cell) cell.classList.add("target");
    if (speak) say(`${row.querySelector("th").textContent.trim()}, ${head.textContent.trim()}`);
  };
  const drop = () => {
    if (carried) for (const el of board().querySelectorAll(".target")) el.classList.remove("target");
    carried = null;
  };
  document.addEventListener("keydown", (e) => {
    if (carried) {
      const all = rooms();
      const n = days().length;
      const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (steps[e.key]) {
        e.preventDefault();
        carried.row = Math.min(all.length - 1, Math.max(0, carried.row + steps[e.key][0]));
        carried.day = Math.min(n - 1, Math.max(0, carried.day + steps[e.key][1]));
        mark(true);
      } else if (e.key === "Enter") {
        e.preventDefault();
        const { bar, offset } = carried;
        const first = days()[carried.day].dataset.day;
        const row = all[carried.row];
        drop();
        move(bar, row, addDays(first, -offset));
      } else if (e.key === "Escape") {
        e.preventDefault();
        drop();
        say(document.getElementById("board-live").dataset.cancelled);
      }
      return;
    }
    const bar = document.activeElement && document.activeElement.closest("table.board a.movable");
    if (!bar || (e.key !== "m" && e.key !== "M") || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    const all = rooms();
    if (all.length === 0) return;
    const heads = days();
    const from = heads[0].dataset.day;
    const first = bar.dataset.arrival < from ? from : bar.dataset.arrival;
    // A booking without a room starts at its type's first room.
    const here = all.indexOf(bar.closest("tr"));
    const group = bar.closest("tbody").querySelector("tr[data-room]");
    carried = {
      bar,
      offset: between(bar.dataset.arrival, first),
      row: here >= 0 ? here : Math.max(0, all.indexOf(group)),
      day: Math.max(0, heads.findIndex((h) => h.dataset.day === first)),
    };
    const live = document.getElementById("board-live").dataset;
    mark(false);
    say(bar.dataset.status === "confirmed" ? live.picked : `${live.picked} ${live.inHouse}`);
  });
})();
