import { WebSocketServer } from 'ws';
import type { StaticServer } from '../support/static-server.ts';

/**
 * A page whose widgets act on the site when they are opened, as real ones do: a notification menu
 * whose click marks everything read (a `fetch` POST), a `<details>` whose toggle sends a beacon, a
 * dialog trigger that sends a DELETE, a tab whose click submits a form into a new window, a
 * disclosure that sends on the page's WebSocket, a custom button whose Enter key sends a PUT, a
 * link with `ping`, and a form the empty-submission check sends. Each widget also reveals a
 * barrier (an image without a text alternative, an unnamed button), so a test can tell that the
 * scan really opened it. Whatever the audit does, the server must see only GETs.
 */
export const SENDING_WIDGETS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Inbox</title>
<link rel="stylesheet" href="/inbox.css"></head>
<body><main>
<h1>Inbox</h1>
<button type="button" id="notifications" aria-expanded="false" aria-controls="notes">Notifications</button>
<div id="notes" hidden><img src="/bell.png" width="20" height="20"></div>
<details id="more"><summary>More</summary><p><img src="/more.png" width="20" height="20"></p></details>
<button type="button" id="delete-draft" aria-haspopup="dialog">Delete draft</button>
<dialog id="deleted"><p>Draft deleted</p><button type="button" id="close-deleted"></button></dialog>
<div role="tablist" aria-label="Views">
  <button type="button" role="tab" id="tab-inbox" aria-selected="true" aria-controls="panel-inbox">Inbox</button>
  <button type="button" role="tab" id="tab-send" aria-selected="false" aria-controls="panel-send" tabindex="-1">Send</button>
</div>
<div role="tabpanel" id="panel-inbox" aria-labelledby="tab-inbox"><p>No messages</p></div>
<div role="tabpanel" id="panel-send" aria-labelledby="tab-send" hidden><p><img src="/sent.png" width="20" height="20"></p></div>
<form id="send-form" action="/send" method="post" target="_blank"><input type="hidden" name="to" value="everyone"></form>
<button type="button" id="live" aria-expanded="false" aria-controls="live-panel">Live</button>
<div id="live-panel" hidden><img src="/live.png" width="20" height="20"></div>
<div role="button" tabindex="0" id="archive">Archive all</div>
<p><a href="#top" ping="/ping" id="pinged">Back to top</a></p>
<form id="subscribe" action="/subscribe" method="post">
  <label for="email">Email *</label><input id="email" name="email" required aria-required="true">
  <button type="submit">Subscribe</button>
</form>
</main>
<script>
  const socket = new WebSocket('ws://' + location.host + '/socket');
  const toggle = (button) => {
    const open = button.getAttribute('aria-expanded') === 'true';
    button.setAttribute('aria-expanded', String(!open));
    document.getElementById(button.getAttribute('aria-controls')).hidden = open;
  };
  document.getElementById('notifications').addEventListener('click', (e) => {
    fetch('/mark-all-read', { method: 'POST' });
    toggle(e.currentTarget);
  });
  document.getElementById('more').addEventListener('toggle', () => navigator.sendBeacon('/beacon', 'opened'));
  document.getElementById('delete-draft').addEventListener('click', () => {
    fetch('/drafts/1', { method: 'DELETE' });
    document.getElementById('deleted').showModal();
  });
  document.getElementById('close-deleted').addEventListener('click', () => document.getElementById('deleted').close());
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => {
      if (tab.id === 'tab-send') document.getElementById('send-form').submit();
      for (const t of document.querySelectorAll('[role=tab]')) {
        const on = t === tab;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
        document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
      }
    });
  }
  document.getElementById('live').addEventListener('click', (e) => {
    if (socket.readyState === 1) socket.send('delete-everything');
    toggle(e.currentTarget);
  });
  const archive = document.getElementById('archive');
  const doArchive = () => fetch('/archive', { method: 'PUT' });
  archive.addEventListener('click', doArchive);
  archive.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') doArchive(); });
</script>
</body></html>`;

/** What the fixture's server received besides HTTP: the messages the page sent on its WebSocket. */
export interface SocketLog {
  messages: string[];
  close(): Promise<void>;
}

/** Serves the fixture's WebSocket (`/socket`) on `server`, recording what the page sends. */
export function attachSocket(server: StaticServer): SocketLog {
  const wss = new WebSocketServer({ server: server.server, path: '/socket' });
  const messages: string[] = [];
  wss.on('connection', (socket) => socket.on('message', (m) => messages.push(String(m))));
  return {
    messages,
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}

/** The stylesheet and pictures the page loads (GETs, which are fine). */
export const SENDING_WIDGETS_ASSETS = ['/inbox.css', '/bell.png', '/more.png', '/sent.png', '/live.png'];
