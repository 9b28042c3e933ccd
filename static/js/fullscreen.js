// The projector's "Full screen" button. The whole page goes full screen, not
// the table: the 2 s refresh replaces #table, which would leave full screen.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-fullscreen]")) {
    button.hidden = !document.fullscreenEnabled;
  }
});
document.addEventListener("click", (event) => {
  if (!event.target.closest("[data-fullscreen]")) return;
  if (document.fullscreenElement) {
    document.exitFullscreen();
  } else {
    document.documentElement.requestFullscreen().catch(() => {});
  }
});
