/**
 * The stand-in's HTML pages: hosted checkout, customer portal and the testers' index. Plain
 * forms, no script, one inline style sheet, so that a strict Content-Security-Policy holds.
 */

export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );

/** Tagged template that escapes every interpolated value, except `raw(...)` fragments. */
class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string) => new Raw(html);
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((part) => (part instanceof Raw ? part.html : escapeHtml(String(part ?? '')))).join('');
    out += strings[index + 1] ?? '';
  });
  return new Raw(out);
}

export const euros = (cents: number) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);

export const frenchDate = (epochSeconds: number | null) =>
  epochSeconds === null
    ? '—'
    : new Intl.DateTimeFormat('fr-FR', {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: 'Europe/Paris',
      }).format(new Date(epochSeconds * 1000));

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #0f1115; color: #e8e8ea; margin: 0; }
  main { max-width: 44rem; margin: 2rem auto; padding: 1.5rem; background: #1a1d24; border-radius: 8px; }
  main.wide { max-width: 72rem; }
  .banner { background: #3b2f00; color: #ffd666; padding: .5rem .75rem; border-radius: 4px; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
  th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #2c313c; vertical-align: top; }
  td.amount { text-align: right; white-space: nowrap; }
  button { background: #4f7cff; color: #fff; border: 0; border-radius: 4px; padding: .6rem 1.2rem; font-size: 1rem; cursor: pointer; }
  button.small { padding: .3rem .6rem; font-size: .85rem; margin: .1rem; }
  button.danger { background: #c0392b; }
  form.inline { display: inline; }
  a { color: #8fb0ff; }
  .error { color: #ff8080; }
`;

export function page(title: string, body: Raw, options: { wide?: boolean } = {}): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main${options.wide ? ' class="wide"' : ''}>
<p class="banner">Simulateur Stripe local — mode test, aucun paiement réel</p>
${body.html}
</main>
</body>
</html>`;
}

export interface CheckoutPageLine {
  readonly name: string;
  readonly amountCents: number;
  readonly recurring: boolean;
}

export function checkoutPage(input: {
  sessionId: string;
  email: string | null;
  lines: readonly CheckoutPageLine[];
  promotionCode: string | null;
  discountCents: number;
  totalCents: number;
  recurringCents: number;
  cancelUrl: string | null;
  error?: string;
}): string {
  const rows = input.lines.map(
    (line) =>
      html`<tr><td>${line.name}</td><td class="amount">${euros(line.amountCents)}${line.recurring ? ' / mois' : ''}</td></tr>`,
  );
  return page(
    'Paiement',
    html`<h1>Finaliser votre achat</h1>
${input.email ? html`<p>E-mail : <strong>${input.email}</strong></p>` : ''}
<table>
<tbody>${rows}</tbody>
</table>
${
  input.promotionCode
    ? html`<p>Code promo <strong>${input.promotionCode}</strong> : −${euros(input.discountCents)}</p>`
    : ''
}
<p><strong>Total dû aujourd'hui : ${euros(input.totalCents)}</strong></p>
<p>Ensuite ${euros(input.recurringCents)} par mois, prélevés automatiquement.</p>
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
<form method="post" action="/checkout/${input.sessionId}">
<button type="submit">Payer</button>
</form>
${input.cancelUrl ? html`<p><a href="${input.cancelUrl}">Annuler et revenir au site</a></p>` : ''}`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return page(
    title,
    html`<h1>${title}</h1><p>${message}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`,
  );
}

export interface SubscriptionRow {
  readonly id: string;
  readonly email: string | null;
  readonly status: string;
  readonly currentPeriodEnd: number | null;
  readonly cancelAtPeriodEnd: boolean;
}

export function portalPage(input: {
  portalId: string;
  email: string | null;
  subscriptions: readonly SubscriptionRow[];
  returnUrl: string | null;
}): string {
  const rows = input.subscriptions.map(
    (subscription) =>
      html`<tr><td>${subscription.id}</td><td>${subscription.status}</td><td>${frenchDate(subscription.currentPeriodEnd)}</td><td>${
        subscription.status === 'canceled'
          ? ''
          : subscription.cancelAtPeriodEnd
            ? 'Résiliation programmée'
            : html`<form class="inline" method="post" action="/portal/${input.portalId}/cancel/${subscription.id}"><button class="small danger" type="submit">Résilier l'abonnement</button></form>`
      }</td></tr>`,
  );
  return page(
    "Gestion de l'abonnement",
    html`<h1>Portail client</h1>
${input.email ? html`<p>Client : <strong>${input.email}</strong></p>` : ''}
<table>
<thead><tr><th>Abonnement</th><th>Statut</th><th>Fin de période</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table>
${input.returnUrl ? html`<p><a href="${input.returnUrl}">Retour au site</a></p>` : ''}`,
  );
}

export interface DeliveryRow {
  readonly eventId: string;
  readonly type: string;
  readonly objectId: string;
  readonly outcome: string;
}

export const ADMIN_ACTIONS = [
  { action: 'renew', label: 'Payer la période suivante' },
  { action: 'fail-payment', label: 'Échec de paiement' },
  { action: 'mark-unpaid', label: 'Marquer impayé' },
  { action: 'delete', label: "Supprimer l'abonnement" },
] as const;

export function indexPage(input: {
  subscriptions: readonly SubscriptionRow[];
  promotionCodes: readonly { code: string; timesRedeemed: number; maxRedemptions: number | null }[];
  deliveries: readonly DeliveryRow[];
  webhookUrl: string | null;
}): string {
  const subscriptionRows = input.subscriptions.map(
    (subscription) =>
      html`<tr><td>${subscription.id}</td><td>${subscription.email ?? ''}</td><td>${subscription.status}</td><td>${frenchDate(subscription.currentPeriodEnd)}</td><td>${ADMIN_ACTIONS.map(
        ({ action, label }) =>
          html`<form class="inline" method="post" action="/_stand-in/subscriptions/${subscription.id}/${action}"><button class="small${action === 'delete' ? ' danger' : ''}" type="submit">${label}</button></form>`,
      )}</td></tr>`,
  );
  const promotionRows = input.promotionCodes.map(
    (promotion) =>
      html`<tr><td>${promotion.code}</td><td>${promotion.timesRedeemed} / ${promotion.maxRedemptions ?? '∞'}</td></tr>`,
  );
  const deliveryRows = input.deliveries.map(
    (delivery) =>
      html`<tr><td>${delivery.eventId}</td><td>${delivery.type}</td><td>${delivery.objectId}</td><td>${delivery.outcome}</td></tr>`,
  );
  return page(
    'Simulateur Stripe local',
    html`<h1>Simulateur Stripe local</h1>
<p>Webhook : ${input.webhookUrl ?? 'aucun (événements seulement enregistrés)'}</p>
<h2>Abonnements</h2>
<table>
<thead><tr><th>Abonnement</th><th>E-mail</th><th>Statut</th><th>Fin de période</th><th>Événements</th></tr></thead>
<tbody>${subscriptionRows}</tbody>
</table>
<h2>Codes promo</h2>
<table>
<thead><tr><th>Code</th><th>Utilisations</th></tr></thead>
<tbody>${promotionRows}</tbody>
</table>
<h2>Derniers événements envoyés</h2>
<table>
<thead><tr><th>Événement</th><th>Type</th><th>Objet</th><th>Livraison</th></tr></thead>
<tbody>${deliveryRows}</tbody>
</table>`,
    { wide: true },
  );
}
