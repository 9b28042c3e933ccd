// Timed turns: the server keeps the clock and ends the turn; this only shows
// the seconds it sent ([data-countdown]) ticking down between two polls.
(() => {
  const tick = () => {
    const now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach((el) => {
      if (!el.dataset.endsAt) el.dataset.endsAt = now + Number(el.dataset.countdown) * 1000;
      const left = Math.max(0, Math.ceil((Number(el.dataset.endsAt) - now) / 1000));
      const number = el.querySelector(".countdown-seconds") || el;
      if (number.textContent !== String(left)) number.textContent = left;
      el.classList.toggle("hurry", left <= 10);
    });
  };
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);
})();
