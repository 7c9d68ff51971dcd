// Publication filters: facets (year, tier, ...) and free text, reflected in the URL so a
// filtered list can be shared. Every paper is in the page already; this only hides some.
(() => {
  const form = document.getElementById("filters");
  if (!form) return;
  const status = document.getElementById("filter-status");
  const empty = document.getElementById("filter-empty");
  const selects = [...form.querySelectorAll("select")];
  const query = form.elements.q;
  const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const papers = [...document.querySelectorAll(".group .paper")].map((el) => ({
    el,
    text: fold([".paper-title", ".paper-authors", ".paper-venue", ".abstract"]
      .map((sel) => el.querySelector(sel)?.textContent || "").join(" ")),
    values: Object.fromEntries(selects.map((s) => [s.name,
      // A paper's topics are joined by "|" (TOPIC_SEPARATOR in scholarsite/models.py);
      // a category or tier is one value, whatever it holds.
      (s.dataset.multi !== undefined ? (el.dataset[s.dataset.attr] || "").split("|")
        : [el.dataset[s.dataset.attr] || ""]).filter(Boolean)])),
  }));

  // Does a paper pass every filter, leaving out the one named `skip` (for option counts)?
  const passes = (paper, state, skip) =>
    selects.every((s) => s.name === skip || !state[s.name] ||
      paper.values[s.name].includes(state[s.name])) &&
    state.terms.every((t) => paper.text.includes(t));

  const readState = () => {
    const state = { terms: fold(query.value).split(/\s+/).filter(Boolean) };
    for (const s of selects) state[s.name] = s.value;
    return state;
  };

  const writeUrl = () => {
    const params = new URLSearchParams();
    for (const el of [query, ...selects]) if (el.value.trim()) params.set(el.name, el.value.trim());
    const search = params.toString();
    history.replaceState(history.state, "", search ? "?" + search : location.pathname + location.hash);
  };

  let announce;
  const apply = (delay) => {
    const state = readState();
    let shown = 0;
    for (const p of papers) {
      p.el.hidden = !passes(p, state);
      if (!p.el.hidden) shown++;
    }
    for (const group of document.querySelectorAll(".group")) {
      const n = group.querySelectorAll(".paper:not([hidden])").length;
      group.hidden = n === 0;
      const count = document.querySelector(`.count[data-group="${group.dataset.group}"]`);
      if (count) {
        count.textContent = `(${n})`;
        count.parentElement.hidden = n === 0; // a group with nothing shown leaves the contents
      }
    }
    for (const s of selects) {
      for (const option of s.options) {
        if (!option.value) continue;
        const n = papers.filter((p) => p.values[s.name].includes(option.value) &&
          passes(p, state, s.name)).length;
        option.textContent = `${option.dataset.label} (${n})`;
      }
    }
    if (empty) empty.hidden = shown > 0;
    writeUrl();
    // Typing waits for a pause, so that a screen reader reads one count, not one per key.
    clearTimeout(announce);
    announce = setTimeout(() => {
      // The words are the page's (data-text, in the site's language).
      status.textContent = (status.dataset.text || "{shown} of {total} publications")
        .replace("{shown}", shown).replace("{total}", papers.length);
    }, delay || 0);
  };

  const params = new URLSearchParams(location.search);
  query.value = params.get("q") || "";
  for (const s of selects) {
    const wanted = params.get(s.name);
    if (wanted && [...s.options].some((o) => o.value === wanted)) s.value = wanted;
  }
  form.addEventListener("input", (e) => apply(e.target === query ? 400 : 0));
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("reset", () => setTimeout(apply));
  form.hidden = false;
  apply();
})();
