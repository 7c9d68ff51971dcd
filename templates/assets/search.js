// Site search over the JSON index that the build puts in the search page: no server needed.
(() => {
  const data = document.getElementById("search-index");
  const input = document.getElementById("search-q");
  const list = document.getElementById("search-results");
  const status = document.getElementById("search-status");
  if (!data || !input || !list) return;
  document.getElementById("search-needs-js").hidden = true;
  // Opened from disk, a folder link would show a listing: link to its index.html instead.
  const fromDisk = location.protocol === "file:";
  const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const entries = JSON.parse(data.textContent).map((e) => ({
    ...e,
    head: fold(e.title),
    body: fold([e.authors, e.venue, e.year, e.text].join(" ")),
  }));

  // A stretch of the text around the first term found, with every term marked.
  const snippet = (text, terms) => {
    const folded = fold(text);
    const p = document.createElement("p");
    p.className = "snippet";
    if (folded.length !== text.length) { p.textContent = text.slice(0, 200); return p; }
    const first = Math.min(...terms.map((t) => folded.indexOf(t)).filter((i) => i >= 0));
    const start = Number.isFinite(first) ? Math.max(0, text.lastIndexOf(" ", first - 60) + 1) : 0;
    const end = Math.min(text.length, start + 220);
    const part = folded.slice(start, end);
    const marks = new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
    let at = 0;
    if (start > 0) p.append("… ");
    for (const m of part.matchAll(marks)) {
      p.append(text.slice(start + at, start + m.index));
      const mark = document.createElement("mark");
      mark.textContent = text.slice(start + m.index, start + m.index + m[0].length);
      p.append(mark);
      at = m.index + m[0].length;
    }
    p.append(text.slice(start + at, end) + (end < text.length ? " …" : ""));
    return p;
  };

  const short = (s) => (s.length > 120 ? s.slice(0, s.lastIndexOf(", ", 120)) + ", …" : s);

  const render = (q) => {
    const terms = fold(q).split(/\s+/).filter(Boolean);
    list.replaceChildren();
    if (!terms.length) { status.textContent = ""; return; }
    const found = entries
      .map((e, i) => ({ e, i, score: terms.reduce((s, t) =>
        s + (e.head.includes(t) ? 3 : 0) + (e.body.includes(t) ? 1 : 0), 0) }))
      .filter(({ e }) => terms.every((t) => e.head.includes(t) || e.body.includes(t)))
      .sort((a, b) => b.score - a.score || a.i - b.i);
    for (const { e } of found) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = list.dataset.root + e.url + (fromDisk && /(^|\/)$/.test(e.url) ? "index.html" : "");
      a.textContent = e.title;
      const meta = document.createElement("p");
      meta.className = "meta";
      meta.textContent = [e.kind, short(e.authors), e.venue, e.year].filter(Boolean).join(" · ");
      li.append(a, meta);
      if (e.text) li.append(snippet(e.text, terms));
      list.append(li);
    }
    // The words are the page's (data-one, data-many: in the site's language).
    status.textContent = found.length === 1 ? status.dataset.one || "1 result"
      : (status.dataset.many || "{count} results").replace("{count}", found.length);
  };

  let timer;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const q = input.value.trim();
      history.replaceState(history.state, "", q ? "?q=" + encodeURIComponent(q) : location.pathname);
      render(q);
    }, 150);
  });
  input.form.addEventListener("submit", (e) => { e.preventDefault(); render(input.value.trim()); });
  input.value = new URLSearchParams(location.search).get("q") || "";
  render(input.value.trim());
})();
