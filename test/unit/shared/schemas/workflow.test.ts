import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { FORM_BOUNDS } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import {
  AutomationForm,
  WorkflowCategoryText,
  WorkflowCreateInput,
  WorkflowTags,
  WorkflowUpdateInput,
} from '../../../../shared/schemas/workflow';
import { messagesOf } from '../../../support/schemas';

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

describe('WorkflowTags and WorkflowCategoryText (the admin sets them; spec §3 display fields)', () => {
  const tag = fc.string({ maxLength: FORM_BOUNDS.workflowTagLengthMax });

  it('keeps any accepted list as trimmed, non-blank tags, each once whatever its case, in order', () => {
    fc.assert(
      fc.property(fc.array(tag, { maxLength: FORM_BOUNDS.workflowTagsMax }), (tags) => {
        const parsed = WorkflowTags.safeParse(tags);
        if (!parsed.success) {
          // Refused only for a tag still too long once trimmed (never for blanks or repeats).
          expect(tags.some((value) => value.trim().length > FORM_BOUNDS.workflowTagLengthMax)).toBe(true);
          return;
        }
        const kept = parsed.data;
        expect(kept.every((value) => value === value.trim() && value.length > 0)).toBe(true);
        expect(new Set(kept.map((value) => value.toLocaleLowerCase('fr'))).size).toBe(kept.length);
        const trimmed = tags.map((value) => value.trim()).filter(Boolean);
        expect(kept.every((value) => trimmed.includes(value))).toBe(true);
        expect(kept[0]).toBe(trimmed[0]);
      }),
      { seed: 15, numRuns: 500 },
    );
  });

  it('refuses more than 10 tags or a tag over 30 characters with its French message', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `t${index}`);

    for (const tags of [eleven, ['x'.repeat(31)]]) {
      const parsed = WorkflowTags.safeParse(tags);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(MESSAGES.validation.workflowTags);
    }
  });

  it('reads a blank category as none and refuses one over 40 characters', () => {
    expect(WorkflowCategoryText.parse('   ')).toBeNull();
    expect(WorkflowCategoryText.parse(null)).toBeNull();
    expect(WorkflowCategoryText.parse(' Successions ')).toBe('Successions');
    expect(WorkflowCategoryText.safeParse('c'.repeat(41)).error?.issues[0]?.message).toBe(
      MESSAGES.validation.workflowCategory,
    );
  });

  it('leaves tags and category out of an update that omits them (unchanged), and none on a create', () => {
    expect(WorkflowCreateInput.parse(VALID_WORKFLOW)).not.toHaveProperty('tags');
    expect(WorkflowUpdateInput.parse({ name: 'Relances' })).toEqual({ name: 'Relances' });
  });
});
