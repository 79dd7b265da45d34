// The first page of the lists a signed-in page shows, asked for as index.html is read, before the
// application's code is even compiled (700 kB: the longest wait before a fetch of its own could
// start). With 1,000 automations that page is the longest part of /admin/workflows' first card.
// The application takes the replies (web/src/api/list-pages.ts) and checks them as any other.
// The pages and lists here are those of SIGNED_IN_PAGES in web/src/app-routes.tsx, by their names
// in READ_PAGE and paths of the route table (test/web/first-reads.test.ts holds them together). Never on /login: the
// pre-rendered page does not load this script.
(() => {
  const adminWorkflows = { workflows: '/api/workflows', folders: '/api/folders' };
  const listsOf = { '/admin/workflows': adminWorkflows, '/admin/workflows-new': adminWorkflows };
  try {
    const path = window.location.pathname.replace(/\/+$/, '');
    const lists = listsOf[path];
    const settings = document.getElementById('runtime-config')?.textContent?.trim();
    const session = JSON.parse(localStorage.getItem('session_user') ?? 'null');
    if (!lists || !settings || typeof session?.token !== 'string') return;
    if (!path.startsWith(`/${session.role}/`) || !(Date.parse(session.expiresAt) > Date.now())) return;
    const base = String(JSON.parse(settings).apiBaseUrl ?? '').replace(/\/+$/, '');
    const headers = { accept: 'application/json', authorization: `Bearer ${session.token}` };
    const replies = {};
    for (const [list, apiPath] of Object.entries(lists)) {
      replies[list] = fetch(`${base}${apiPath}`, { headers });
      // A failure is the application's to report, when it takes the reply.
      replies[list].catch(() => undefined);
    }
    window.firstReads = { at: Date.now(), token: session.token, replies };
  } catch {
    // Anything unexpected (storage refused, settings unreadable): the page reads its lists itself.
  }
})();
