import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { ApiHttpError } from '../../api/api-errors';
import { requestPortalLink } from '../../api/billing';
import { STRINGS } from '../../strings';
import { CardForm, useCardSubmit } from './card-form';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Here rather than in STRINGS: /login's first load stays within its budget. */
const TEXT = {
  description:
    "Licence suspendue ou résiliée ? Indiquez l'adresse e-mail de facturation, celle de l'achat : nous y enverrons un lien vers le portail client (factures, moyen de paiement, paiement en retard).",
  emailLabel: 'Adresse e-mail de facturation',
  submit: 'Recevoir le lien',
  busy: 'Envoi en cours...',
} as const;

/**
 * A suspended or cancelled firm cannot sign in: it asks for a customer-portal link, e-mailed to
 * the licence's billing address. The server's answer is the same whatever the address.
 */
export function PortalLinkForm({ onBack }: { readonly onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [sent, setSent] = useState<string>();

  const state = useCardSubmit(
    () => {
      const trimmed = email.trim();
      const ok = EMAIL.test(trimmed);
      setEmailError(ok ? undefined : MESSAGES.purchase.emailInvalid);
      return ok ? trimmed : undefined;
    },
    async (address) => {
      try {
        const reply = await requestPortalLink(address);
        setSent(reply.message);
        return { leaving: false, error: '' };
      } catch (error) {
        const message = error instanceof ApiHttpError ? error.serverMessage : undefined;
        return { leaving: false, error: message ?? MESSAGES.subscription.customerPortalFailed };
      }
    },
  );

  return (
    <SpaceBetween size="l">
      <CardForm
        title={STRINGS.portalLink.title}
        description={TEXT.description}
        submitLabel={TEXT.submit}
        busyLabel={TEXT.busy}
        state={{ ...state, error: state.error || undefined }}
      >
        <SpaceBetween size="m">
          <FormField label={TEXT.emailLabel} errorText={emailError} stretch>
            <Input
              type="email"
              value={email}
              onChange={({ detail }) => setEmail(detail.value)}
              invalid={emailError !== undefined}
              autoComplete="email"
              autoFocus
            />
          </FormField>
          {sent ? <Alert type="success">{sent}</Alert> : null}
        </SpaceBetween>
      </CardForm>
      <Button variant="link" onClick={onBack}>
        {STRINGS.purchase.backToLogin}
      </Button>
    </SpaceBetween>
  );
}
