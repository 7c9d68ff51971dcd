// Readers' comments (templates/_comments.html): giscus is loaded from giscus.app only when
// the reader presses "Show comments", so that no page asks another site for anything before
// then. Its colours follow the site's light or dark look, when loaded and as it changes.
(() => {
  const box = document.querySelector(".comments .giscus");
  const button = document.querySelector(".comments-show");
  if (!box || !button) return;
  const root = document.documentElement;
  const system = matchMedia("(prefers-color-scheme: dark)");
  const theme = () => ((root.dataset.theme ? root.dataset.theme === "dark" : system.matches)
    ? "dark" : "light");
  const tell = () => {  // giscus's documented message for a new configuration
    const frame = document.querySelector("iframe.giscus-frame");
    if (frame) frame.contentWindow.postMessage({ giscus: { setConfig: { theme: theme() } } },
      "https://giscus.app");
  };
  button.addEventListener("click", () => {
    const script = document.createElement("script");
    // The discussion is found by the page's path in the site (`specific`, `strict`): the
    // same when the site moves to another address or a project path.
    Object.assign(script.dataset, box.dataset, { mapping: "specific", strict: "1",
      reactionsEnabled: "1", emitMetadata: "0", inputPosition: "bottom", theme: theme() });
    script.src = "https://giscus.app/client.js";
    script.crossOrigin = "anonymous";
    script.async = true;
    box.after(script);
    button.remove();
    new MutationObserver(tell).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
    system.addEventListener("change", tell);
  }, { once: true });
  button.hidden = false;
})();
