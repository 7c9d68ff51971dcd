// The dark-mode toggle. The inline script in <head> has already applied a stored choice
// before the first paint; this shows the button and keeps its state true.
(() => {
  const button = document.getElementById("theme-toggle");
  if (!button) return;
  const root = document.documentElement;
  const system = matchMedia("(prefers-color-scheme: dark)");
  const stored = () => { try { return localStorage.getItem("theme"); } catch (e) { return null; } };
  const isDark = () => (root.dataset.theme ? root.dataset.theme === "dark" : system.matches);
  const sync = () => button.setAttribute("aria-pressed", String(isDark()));
  button.addEventListener("click", () => {
    const theme = isDark() ? "light" : "dark";
    root.dataset.theme = theme;
    try {
      // A choice equal to the system's is forgotten, so the site follows the system again.
      if (theme === (system.matches ? "dark" : "light")) localStorage.removeItem("theme");
      else localStorage.setItem("theme", theme);
    } catch (e) { /* storage disabled: the choice lasts for this page only */ }
    sync();
  });
  system.addEventListener("change", () => {
    if (!stored()) delete root.dataset.theme;
    sync();
  });
  sync();
  button.hidden = false;
})();
