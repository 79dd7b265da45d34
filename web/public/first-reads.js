// What /admin/workflows shows first (its first page of automations and the counts), asked for as
// index.html is read, before the application's code is even compiled (700 kB: the longest wait
// before a fetch of its own could start). The application takes the replies into its query cache
// (web/src/api/early-reads.ts, whose EARLY_READ_PATHS these are) and checks them as any other.
// Never on /login: the pre-rendered page does not load this script.
(() => {
  const reads = { workflows: '/api/workflows?limit=12', counts: '/api/counts' };
  const readsOf = { '/admin/workflows': reads, '/admin/workflows-new': reads };
  try {
    const path = window.location.pathname.replace(/\/+$/, '');
    const wanted = readsOf[path];
    const settings = document.getElementById('runtime-config')?.textContent?.trim();
    const session = JSON.parse(localStorage.getItem('session_user') ?? 'null');
    if (!wanted || !settings || typeof session?.token !== 'string') return;
    if (!path.startsWith(`/${session.role}/`) || !(Date.parse(session.expiresAt) > Date.now())) return;
    const base = String(JSON.parse(settings).apiBaseUrl ?? '').replace(/\/+$/, '');
    const headers = { accept: 'application/json', authorization: `Bearer ${session.token}` };
    const replies = {};
    for (const [name, apiPath] of Object.entries(wanted)) {
      replies[name] = fetch(`${base}${apiPath}`, { headers });
      // A failure is the application's to report, when it takes the reply.
      replies[name].catch(() => undefined);
    }
    window.firstReads = { at: Date.now(), token: session.token, replies };
  } catch {
    // Anything unexpected (storage refused, settings unreadable): the page reads itself.
  }
})();
