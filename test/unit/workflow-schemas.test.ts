import { describe, expect, it } from 'vitest';

import { AutomationForm, WorkflowCreateInput } from '../../shared/schemas/workflow';

const VALID_WORKFLOW = {
  name: 'Gestion client',
  description: 'Automatisation de la gestion des clients',
  webhookUrl: 'https://hooks.example.com/client-management',
  lawyerEmail: 'camille.martin@gmail.com',
  type: 'client_management',
};

const VALID_FORM = {
  templateType: 'client_reminder',
  name: 'Relance dossier',
  description: 'Relance des pièces manquantes',
  webhookUrl: 'https://hooks.example.com/reminder',
  lawyerEmail: 'camille.martin@gmail.com',
};

/** The messages of a refused input, by field. */
function messagesOf(schema: typeof WorkflowCreateInput | typeof AutomationForm, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('WorkflowCreateInput', () => {
  it('accepts a complete workflow', () => {
    // Act
    const result = WorkflowCreateInput.safeParse(VALID_WORKFLOW);

    // Assert
    expect(result.success).toBe(true);
  });

  it.each([
    ['name', { name: 'ab' }, 'Le nom doit contenir au moins 3 caractères'],
    ['name', { name: '  ab  ' }, 'Le nom doit contenir au moins 3 caractères'],
    ['description', { description: 'Courte' }, 'La description doit contenir au moins 10 caractères'],
    ['webhookUrl', { webhookUrl: 'ftp://hooks.example.com/x' }, 'URL du webhook invalide'],
    ['webhookUrl', { webhookUrl: 'pas une url' }, 'URL du webhook invalide'],
    ['webhookUrl', { webhookUrl: 'javascript:alert(1)' }, 'URL du webhook invalide'],
    ['lawyerEmail', { lawyerEmail: '' }, 'Veuillez sélectionner un avocat'],
    ['lawyerEmail', { lawyerEmail: 'camille' }, 'Veuillez sélectionner un avocat'],
    ['lawyerEmail', { lawyerEmail: undefined }, 'Veuillez sélectionner un avocat'],
  ])('refuses a wrong %s with its message (%o)', (field, change, message) => {
    // Act
    const messages = messagesOf(WorkflowCreateInput, { ...VALID_WORKFLOW, ...change });

    // Assert
    expect(messages).toEqual({ [field]: message });
  });

  it('accepts an http webhook URL as well as https', () => {
    // Act
    const result = WorkflowCreateInput.safeParse({
      ...VALID_WORKFLOW,
      webhookUrl: 'http://localhost:5678/x',
    });

    // Assert
    expect(result.success).toBe(true);
  });

  it('refuses an unknown workflow type', () => {
    // Act
    const messages = messagesOf(WorkflowCreateInput, { ...VALID_WORKFLOW, type: 'billing' });

    // Assert
    expect(Object.keys(messages)).toEqual(['type']);
  });
});

describe('AutomationForm', () => {
  it('turns scheduling on by default', () => {
    // Act
    const form = AutomationForm.parse(VALID_FORM);

    // Assert
    expect(form.enableCron).toBe(true);
  });

  it("refuses a webhook URL that is not a URL with 'Veuillez entrer une URL valide'", () => {
    // Act
    const messages = messagesOf(AutomationForm, { ...VALID_FORM, webhookUrl: 'pas une url' });

    // Assert
    expect(messages).toEqual({ webhookUrl: 'Veuillez entrer une URL valide' });
  });

  it.each([
    ['name', { name: 'ab' }, 'Le nom doit contenir au moins 3 caractères'],
    ['description', { description: 'court' }, 'La description doit contenir au moins 10 caractères'],
    ['lawyerEmail', { lawyerEmail: '' }, 'Veuillez sélectionner un avocat'],
  ])('refuses a wrong %s with its message', (field, change, message) => {
    // Act
    const messages = messagesOf(AutomationForm, { ...VALID_FORM, ...change });

    // Assert
    expect(messages).toEqual({ [field]: message });
  });
});
