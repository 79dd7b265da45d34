import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import { type CheckoutRequest, MESSAGES } from '../../../../shared';
import { ApiHttpError } from '../../api/api-errors';
import { createCheckout } from '../../api/billing';
import { PRICES } from '../../config/prices';
import { useFollow } from '../../layout/use-follow';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { CardForm, type SubmitOutcome, useCardSubmit } from './card-form';
import { type PurchaseErrors, validatePurchase } from './login-config';

/**
 * The buyer's reason of a failed checkout: a refusal of the request (a bad e-mail, an unknown or
 * used-up promo code) carries the server's French text; anything else, a 404 included (a server
 * without the payment service, whose 'Ressource introuvable.' would tell a buyer nothing), is the
 * spec's 'Erreur lors de la création du paiement'.
 */
function checkoutErrorOf(error: unknown): string {
  const refused = error instanceof ApiHttpError && error.status < 500 && error.status !== 404;
  return (refused ? error.serverMessage : undefined) ?? MESSAGES.purchase.checkoutFailed;
}

/** Opens the payment session and sends the browser to the payment page (spec §4 purchase). */
async function startCheckout(request: CheckoutRequest): Promise<SubmitOutcome> {
  try {
    const reply = await createCheckout(request);
    if (reply.url) {
      window.location.assign(reply.url);
      return { leaving: true };
    }
    return { leaving: false, error: reply.error || MESSAGES.purchase.noCheckoutUrl };
  } catch (error) {
    return { leaving: false, error: checkoutErrorOf(error) };
  }
}

/**
 * The purchase form: e-mail and optional promo code, then the payment page. On the login card
 * `onBack` switches the card back to the sign-in form; on /purchase the back link goes to /login.
 */
export function PurchaseForm({ onBack }: { readonly onBack?: () => void }) {
  const notifications = useNotifications();
  const follow = useFollow();
  const [email, setEmail] = useState('');
  const [promoCode, setPromoCode] = useState('');
  const [errors, setErrors] = useState<PurchaseErrors>({});

  const state = useCardSubmit(
    () => {
      const checked = validatePurchase({ email, promoCode });
      setErrors(checked.ok ? {} : checked.errors);
      return checked.ok ? checked.request : undefined;
    },
    async (request) => {
      const outcome = await startCheckout(request);
      if (!outcome.leaving) notifications.error(outcome.error);
      return outcome;
    },
  );

  return (
    <SpaceBetween size="l">
      <CardForm
        title={STRINGS.purchase.title}
        description={STRINGS.purchase.description}
        submitLabel={STRINGS.purchase.submit}
        busyLabel={MESSAGES.purchase.redirecting}
        state={state}
      >
        <SpaceBetween size="l">
          <ColumnLayout columns={2} variant="text-grid">
            <div>
              <Box variant="awsui-key-label">{STRINGS.purchase.initialPayment}</Box>
              <Box fontSize="heading-l" fontWeight="bold">
                {PRICES.initial} {STRINGS.purchase.inclTax}
              </Box>
            </div>
            <div>
              <Box variant="awsui-key-label">{STRINGS.purchase.monthlySubscription}</Box>
              <Box fontSize="heading-l" fontWeight="bold">
                {PRICES.monthly} {STRINGS.purchase.inclTax}
              </Box>
              <Box variant="small">{STRINGS.purchase.perMonth}</Box>
            </div>
          </ColumnLayout>
          <Box fontWeight="bold">
            {STRINGS.purchase.dueToday(PRICES.firstPayment, PRICES.initial, PRICES.monthly)}
          </Box>
          <Box variant="small" color="text-body-secondary">
            {PRICES.vatNotice}. {STRINGS.purchase.noCommitment}
          </Box>
          <FormField label={STRINGS.purchase.emailLabel} errorText={errors.email} stretch>
            <Input
              type="email"
              inputMode="email"
              value={email}
              onChange={({ detail }) => setEmail(detail.value)}
              placeholder={STRINGS.purchase.emailPlaceholder}
              invalid={errors.email !== undefined}
              autoComplete="email"
              autoFocus
            />
          </FormField>
          <FormField
            label={
              <span>
                {STRINGS.purchase.promoCodeLabel} - <i>{STRINGS.purchase.promoCodeOptional}</i>
              </span>
            }
            errorText={errors.promoCode}
            stretch
          >
            <Input
              value={promoCode}
              onChange={({ detail }) => setPromoCode(detail.value)}
              invalid={errors.promoCode !== undefined}
              autoComplete="off"
              spellcheck={false}
            />
          </FormField>
        </SpaceBetween>
      </CardForm>
      <Box textAlign="center">
        {onBack ? (
          <Button variant="link" iconName="arrow-left" onClick={onBack}>
            {STRINGS.purchase.backToLogin}
          </Button>
        ) : (
          <Button variant="link" iconName="arrow-left" href="/login" onFollow={follow}>
            {STRINGS.purchase.backToLogin}
          </Button>
        )}
      </Box>
    </SpaceBetween>
  );
}
