import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { FolderRepository } from '../../../../functions/data/directory/folders';
import { FolderNotFoundError } from '../../../../functions/domain/directory/ports';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { folderRecord, minutesAfterOrigin } from '../../../support/records';

describe('FolderRepository', () => {
  let app: TestApp;
  let folders: FolderRepository;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    folders = new FolderRepository(app.table);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('create and getById', () => {
    it('reads a created folder back', async () => {
      // Arrange
      const folder = folderRecord();

      // Act
      await folders.create(folder);

      // Assert
      expect(await folders.getById(folder.id)).toEqual(folder);
    });

    it('keeps a folder without description', async () => {
      // Arrange
      const folder = folderRecord({ description: null });

      // Act
      await folders.create(folder);

      // Assert
      expect(await folders.getById(folder.id)).toEqual(folder);
    });

    it('returns null for an unknown id', async () => {
      expect(await folders.getById(randomUUID())).toBeNull();
    });
  });

  describe('list', () => {
    it('lists folders newest first', async () => {
      // Arrange
      const oldest = folderRecord({ createdAt: minutesAfterOrigin(1) });
      const newest = folderRecord({ createdAt: minutesAfterOrigin(3) });
      const middle = folderRecord({ createdAt: minutesAfterOrigin(2) });
      for (const folder of [oldest, newest, middle]) await folders.create(folder);
      const mine = new Set([oldest.id, newest.id, middle.id]);

      // Act
      const listed = (await folders.page(100)).items;

      // Assert
      expect(listed.filter((folder) => mine.has(folder.id))).toEqual([newest, middle, oldest]);
    });
  });

  describe('update', () => {
    it('renames a folder and returns it as it now is', async () => {
      // Arrange
      const folder = folderRecord();
      await folders.create(folder);

      // Act
      const updated = await folders.update(
        folder.id,
        { name: 'Dossier Durand', description: null },
        minutesAfterOrigin(10),
      );

      // Assert
      const expected = {
        ...folder,
        name: 'Dossier Durand',
        description: null,
        updatedAt: minutesAfterOrigin(10),
      };
      expect(updated).toEqual(expected);
      expect(await folders.getById(folder.id)).toEqual(expected);
    });

    it('refuses an unknown folder without creating it', async () => {
      // Arrange
      const id = randomUUID();

      // Act
      const attempt = folders.update(id, { name: 'Fantôme', description: null }, minutesAfterOrigin(10));

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(FolderNotFoundError);
      expect(await folders.getById(id)).toBeNull();
    });
  });

  describe('delete', () => {
    it('removes the folder from look-ups and the list', async () => {
      // Arrange
      const folder = folderRecord();
      await folders.create(folder);

      // Act
      await folders.delete(folder);

      // Assert
      expect(await folders.getById(folder.id)).toBeNull();
      expect((await folders.page(100)).items.map((listed) => listed.id)).not.toContain(folder.id);
    });
  });
});
