/**
 * A page whose barriers sit behind a click: a disclosure menu, a `<details>`, the second tab of a
 * tab list, a modal dialog and a popover; one barrier in its default state; and controls that must
 * never be clicked (a form's submit button that claims to expand something, a link that navigates).
 * Shared by the audit-level and the API-level tests of interaction states.
 */
export const STATES_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>States</title>
<style>body{font:16px sans-serif;color:#111;background:#fff} .faint{color:#bbb;background:#fff}</style></head>
<body>
<header>
  <button id="menu-button" type="button" aria-expanded="false" aria-controls="menu">Menu</button>
  <nav id="menu" aria-label="Main" hidden><ul><li><a href="/elsewhere"><img src="/logo.png" width="40" height="40"></a></li></ul></nav>
</header>
<main>
  <h1>States</h1>
  <p><img id="default-img" src="/photo.png" width="40" height="40"></p>
  <details><summary>More options</summary><p><input type="text" id="hidden-field"></p></details>
  <div role="tablist" aria-label="Sections">
    <button type="button" role="tab" id="tab-1" aria-selected="true" aria-controls="panel-1">First</button>
    <button type="button" role="tab" id="tab-2" aria-selected="false" aria-controls="panel-2" tabindex="-1">Second</button>
  </div>
  <div role="tabpanel" id="panel-1" aria-labelledby="tab-1"><p>First panel</p></div>
  <div role="tabpanel" id="panel-2" aria-labelledby="tab-2" hidden><p>Second panel <button type="button" id="icon-button"></button></p></div>
  <button type="button" id="open-dialog" aria-haspopup="dialog">Contact us</button>
  <dialog id="dialog" aria-labelledby="dialog-title"><h2 id="dialog-title">Contact</h2><p class="faint" id="faint-text">Write to us any time</p><button type="button" id="close-dialog">Close</button></dialog>
  <button type="button" id="help-button" popovertarget="help">Help</button>
  <div id="help" popover><p>Pick one: <select id="unnamed-select"><option>a</option><option>b</option></select></p></div>
  <form action="/submit" method="post">
    <p><label>Name <input name="name"></label></p>
    <button id="send" aria-expanded="false" aria-controls="trap">Send</button>
  </form>
  <p><a href="/elsewhere" aria-haspopup="menu" aria-controls="trap" id="away">Elsewhere</a></p>
  <div id="trap" hidden><img src="/trap.png" width="10" height="10"></div>
</main>
<script>
  const menuButton = document.getElementById('menu-button');
  menuButton.addEventListener('click', () => {
    const open = menuButton.getAttribute('aria-expanded') === 'true';
    menuButton.setAttribute('aria-expanded', String(!open));
    document.getElementById('menu').hidden = open;
  });
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => {
      for (const t of document.querySelectorAll('[role=tab]')) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
      }
    });
  }
  // Were either of these clicked, the trap would show (and its barrier be reported with their state).
  for (const id of ['send', 'away']) document.getElementById(id).addEventListener('click', () => (document.getElementById('trap').hidden = false));
  document.getElementById('open-dialog').addEventListener('click', () => document.getElementById('dialog').showModal());
  document.getElementById('close-dialog').addEventListener('click', () => document.getElementById('dialog').close());
</script>
</body></html>`;

/** A page with `n` disclosure buttons, each revealing an image without a text alternative. */
export function manyDisclosuresPage(n: number): string {
  const items = Array.from(
    { length: n },
    (_, i) => `<div><button type="button" id="d${i}" aria-expanded="false" aria-controls="c${i}">Section ${i}</button><div id="c${i}" hidden><img src="/i${i}.png" width="10" height="10"></div></div>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Many</title></head><body><main><h1>Many</h1>${items}</main>
<script>
  for (const b of document.querySelectorAll('button[aria-controls]')) {
    b.addEventListener('click', () => {
      const open = b.getAttribute('aria-expanded') === 'true';
      b.setAttribute('aria-expanded', String(!open));
      document.getElementById(b.getAttribute('aria-controls')).hidden = open;
    });
  }
</script></body></html>`;
}
