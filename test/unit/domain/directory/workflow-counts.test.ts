import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CountedWorkflow,
  counterDeltas,
  recount,
} from '../../../../functions/domain/directory/workflow-counts';
import { WORKFLOW_TYPES } from '../../../../shared/constants';

const workflow: fc.Arbitrary<CountedWorkflow> = fc.record({
  id: fc.constantFrom('w1'),
  lawyerEmail: fc.constantFrom('a@x.fr', 'b@x.fr'),
  folderId: fc.constantFrom(null, 'f1', 'f2'),
  active: fc.boolean(),
  cronEnabled: fc.boolean(),
  type: fc.constantFrom(...WORKFLOW_TYPES),
});

describe('counter deltas', () => {
  it('move nothing when nothing counted changes (a rename)', () => {
    fc.assert(
      fc.property(workflow, (item) => {
        expect(counterDeltas(item, { ...item })).toEqual([]);
      }),
    );
  });

  it('bring every scope from the counts before to the counts after', () => {
    fc.assert(
      fc.property(fc.option(workflow, { nil: null }), fc.option(workflow, { nil: null }), (before, after) => {
        const deltas = counterDeltas(before, after);
        const scopes: [string, (item: CountedWorkflow) => boolean][] = [
          ['all', () => true],
          ['owner a@x.fr', (item) => item.lawyerEmail === 'a@x.fr'],
          ['owner b@x.fr', (item) => item.lawyerEmail === 'b@x.fr'],
          ['folder f1', (item) => item.folderId === 'f1'],
        ];
        for (const [name, holds] of scopes) {
          const delta = deltas.find((candidate) =>
            name === 'all'
              ? candidate.scope.kind === 'all'
              : name.startsWith('owner')
                ? candidate.scope.kind === 'owner' && `owner ${candidate.scope.email}` === name
                : candidate.scope.kind === 'folder' && `folder ${candidate.scope.folderId}` === name,
          );
          const counted = (item: CountedWorkflow | null) => recount(item && holds(item) ? [item] : []);
          const [was, is] = [counted(before), counted(after)];
          expect(delta?.add.total ?? 0, name).toBe(is.total - was.total);
          expect(delta?.add.active ?? 0, name).toBe(is.active - was.active);
          expect(delta?.add.scheduled ?? 0, name).toBe(is.scheduled - was.scheduled);
        }
      }),
    );
  });
});
