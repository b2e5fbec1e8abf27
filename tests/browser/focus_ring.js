// What the keyboard's focus looks like now: the focused element, whether it shows a focus ring (an outline
// of 2 px or more, or the browser's own, or a box shadow spread 2 px or more, in a colour that is not
// transparent), and the ring's contrast with the background behind it. Read by test_site_keyboard.py.
() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  const rgba = (c) => { const m = c.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  let colour = null;
  if (s.outlineStyle !== "none" && (parseFloat(s.outlineWidth) >= 2 || s.outlineStyle === "auto")) colour = rgba(s.outlineColor);
  if (!colour || colour[3] === 0) {
    colour = null;
    for (const part of s.boxShadow.split(/,(?![^(]*\))/)) {
      const c = rgba(part); const nums = part.replace(/rgba?\([^)]*\)/, "").trim().split(/\s+/).map(parseFloat);
      if (c && c[3] > 0 && nums.length >= 4 && nums[3] >= 2) { colour = c; break; }
    }
  }
  // What lies behind the ring: the nearest box around the element with a background of its own.
  let bg = null;
  for (let a = e.parentElement; a && !bg; a = a.parentElement) {
    const c = rgba(getComputedStyle(a).backgroundColor);
    if (c && c[3] > 0.5) bg = c;
  }
  bg = bg || rgba(getComputedStyle(document.body).backgroundColor);
  const contrast = colour && bg ? (Math.max(lum(colour), lum(bg)) + 0.05) / (Math.min(lum(colour), lum(bg)) + 0.05) : 0;
  return { tag: e.tagName, label: (e.getAttribute("aria-label") || e.getAttribute("title") || e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40), ring: Boolean(colour), contrast: Math.round(contrast * 100) / 100, visible: e.matches(":focus-visible") };
}
