import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { type FormEvent, useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { ApiHttpError } from '../../api/api-errors';
import { createCheckout } from '../../api/checkout';
import { PRICES } from '../../config/prices';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { type PurchaseErrors, validatePurchase } from './login-config';

/** The purchase form of the login card: e-mail and optional promo code, then the payment page. */
export function PurchaseForm({ onBack }: { readonly onBack: () => void }) {
  const notifications = useNotifications();
  const [email, setEmail] = useState('');
  const [promoCode, setPromoCode] = useState('');
  const [errors, setErrors] = useState<PurchaseErrors>({});
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const checked = validatePurchase({ email, promoCode });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const reply = await createCheckout(checked.request);
      if (reply.url) {
        window.location.assign(reply.url);
        return;
      }
      notifications.error(reply.error || MESSAGES.purchase.noCheckoutUrl);
    } catch (error) {
      const serverMessage =
        error instanceof ApiHttpError && error.status < 500 ? error.serverMessage : undefined;
      notifications.error(serverMessage ?? MESSAGES.purchase.checkoutFailed);
    }
    setSubmitting(false);
  };

  return (
    <SpaceBetween size="l">
      <form onSubmit={submit} noValidate>
        <Form
          header={
            <Header variant="h1" description={STRINGS.purchase.description}>
              {STRINGS.purchase.title}
            </Header>
          }
          actions={
            <Button variant="primary" formAction="submit" loading={submitting}>
              {submitting ? MESSAGES.purchase.redirecting : STRINGS.purchase.submit}
            </Button>
          }
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
        </Form>
      </form>
      <Box textAlign="center">
        <Button variant="link" iconName="arrow-left" onClick={onBack}>
          {STRINGS.purchase.backToLogin}
        </Button>
      </Box>
    </SpaceBetween>
  );
}
