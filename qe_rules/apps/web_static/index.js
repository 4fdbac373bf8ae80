// The host's form (/): one seat-kind choice per player.
"use strict";
const form = document.getElementById("create");
const KINDS = JSON.parse(form.dataset.kinds);
const players = document.getElementById("players");
players.value = form.dataset.players;
function drawSeats() {
  const box = document.getElementById("seats");
  box.querySelectorAll("label").forEach((label) => label.remove());
  for (let seat = 0; seat < Number(players.value); seat++) {
    const label = document.createElement("label");
    label.textContent = `seat ${seat} `;
    const select = document.createElement("select");
    select.name = `seat${seat}`;
    for (const kind of KINDS) {
      const option = document.createElement("option");
      option.value = kind;
      option.textContent = kind === "person" ? "a person (private link)" : `agent: ${kind}`;
      select.append(option);
    }
    select.value = seat === 0 ? "person" : "value";
    label.append(select);
    box.append(label);
  }
}
players.addEventListener("change", drawSeats);
drawSeats();
