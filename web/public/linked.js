// A link that carries settings (#d_model=64&heads=2, say) opens other numbers than the first
// screen written into the page: marked before the body is read, so that CSS hides that screen
// (page.css) until the element draws the link's own.
if (location.hash.length > 1) document.documentElement.setAttribute('data-linked', '');
