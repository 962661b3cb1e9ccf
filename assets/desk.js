// innkeep front desk: small progressive enhancements; every page works without this file.
document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("[data-print]")) {
    b.addEventListener("click", () => window.print());
  }
});
