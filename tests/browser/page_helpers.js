// Read-only helpers the browser tests add to a page of the site, as window.irmeansTest.
// Figures are found through window.irmeansFigures (see irmeans.plots.embed_html).
window.irmeansTest = (function () {
  const figures = () => window.irmeansFigures || {};
  const divs = () => Array.from(document.querySelectorAll(".irmeans-figure"));

  // Every item of every mark of a Vega scenegraph, with the data it shows (plain fields only).
  function items(node, out) {
    if (!node) return out;
    if (node.marktype && node.marktype !== "group") {
      for (const item of node.items || []) {
        const datum = {};
        for (const [key, value] of Object.entries(item.datum || {})) {
          if (["number", "string", "boolean"].includes(typeof value)) datum[key] = value;
        }
        const text = item.text === undefined ? null : String(item.text);
        out.push({ marktype: node.marktype, role: node.role || "", text: text, datum: datum });
      }
    }
    for (const child of node.items || []) if (child && child.items) items(child, out);
    return out;
  }

  return {
    figureIds: () => divs().map((d) => d.id),
    // True once every figure on the page has been fitted to its column and drawn (irmeans-figures.js).
    figuresReady: () => divs().every((d) => figures()[d.id] && d.querySelector("svg") && d.dataset.fitted === "true"),
    // The controls Vega bound to a figure's parameters, in page order.
    controls: (id) =>
      Array.from(document.querySelectorAll(`#${id} .vega-bindings input, #${id} .vega-bindings select`)).map(
        (el) => ({
          name: el.name,
          kind: el.tagName === "SELECT" ? "select" : el.type,
          options: el.tagName === "SELECT" ? Array.from(el.options).map((o) => o.text) : null,
        })
      ),
    // Wait until the figure's view has processed every pending change.
    settle: async (id) => { await figures()[id].view.runAsync(); },
    // What the figure shows: its SVG, without the controls' own labels.
    picture: (id) => (document.querySelector(`#${id} svg`) || { outerHTML: "" }).outerHTML,
    signal: (id, name) => figures()[id].view.signal(name),
    usermeta: (id) => (figures()[id].spec || {}).usermeta || {},
    // What the figure says of itself: its text alternative, the live region's last words, the controls' values.
    words: (id) => ({
      label: document.getElementById(id).getAttribute("aria-label"),
      svg: (document.querySelector(`#${id} svg`) || { getAttribute: () => null }).getAttribute("aria-label"),
      now: (document.getElementById(`${id}-now`) || { textContent: null }).textContent,
      live: (document.getElementById(`${id}-now`) || { getAttribute: () => null }).getAttribute("aria-live"),
    }),
    // The marks drawn from the figure's data (not axes, legends or titles): type, text, datum.
    shown: (id) => items(figures()[id].view.scenegraph().root, []).filter((t) => t.role === "mark"),
  };
})();
