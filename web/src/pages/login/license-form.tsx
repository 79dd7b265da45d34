import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { type PendingSignIn, useAuth } from '../../auth/auth-context';
import { useFollow } from '../../layout/use-follow';
import { STRINGS } from '../../strings';
import { CardForm, useCardSubmit } from './card-form';
import { validateLicenseKey } from './login-config';
import styles from './login-page.module.css';

interface LicenseFormProps {
  readonly onGetLicense: () => void;
  /** A firm that cannot sign in asks for its customer-portal link. */
  readonly onManageSubscription: () => void;
  /** The key was right; the licence's second factor comes next. */
  readonly onSecondFactor: (pending: PendingSignIn) => void;
}

/** The licence-key sign-in form of the login card. */
export function LicenseForm({ onGetLicense, onManageSubscription, onSecondFactor }: LicenseFormProps) {
  const { login } = useAuth();
  const follow = useFollow();
  const [licenseKey, setLicenseKey] = useState('');
  const [keyError, setKeyError] = useState<string>();

  const state = useCardSubmit(
    () => {
      const checked = validateLicenseKey(licenseKey);
      setKeyError(checked.ok ? undefined : checked.error);
      return checked.ok ? checked.licenseKey : undefined;
    },
    async (key) => {
      // login() raises the toast itself; on success the app has already moved to the role's home.
      const result = await login(key);
      if (result.ok) return { leaving: true };
      if (result.pending) {
        onSecondFactor(result.pending);
        return { leaving: true };
      }
      return { leaving: false, error: result.error };
    },
  );

  return (
    <SpaceBetween size="l">
      <CardForm
        title={STRINGS.login.title}
        description={STRINGS.login.description}
        submitLabel={STRINGS.login.submit}
        busyLabel={MESSAGES.login.connectingButton}
        state={state}
      >
        <FormField label={STRINGS.login.licenseKeyLabel} errorText={keyError} stretch>
          <Input
            value={licenseKey}
            onChange={({ detail }) => setLicenseKey(detail.value)}
            placeholder={STRINGS.login.licenseKeyPlaceholder}
            invalid={keyError !== undefined}
            autoComplete="off"
            spellcheck={false}
            disableBrowserAutocorrect
            autoFocus
          />
        </FormField>
      </CardForm>
      <SpaceBetween size="xs">
        <Box textAlign="center" color="text-body-secondary">
          {STRINGS.login.noLicenseYet}
        </Box>
        <div className={styles.buttonRow}>
          <Button onClick={onGetLicense}>{STRINGS.login.getLicense}</Button>
          <Button href="/discover" onFollow={follow}>
            {STRINGS.login.discover}
          </Button>
        </div>
        <Box textAlign="center">
          <Button variant="inline-link" onClick={onManageSubscription}>
            {STRINGS.portalLink.open}
          </Button>
        </Box>
      </SpaceBetween>
    </SpaceBetween>
  );
}
