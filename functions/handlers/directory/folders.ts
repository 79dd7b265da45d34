import { MESSAGES } from '../../../shared/messages';
import { keptReplies } from '../../http/kept-replies';
import { idParameter } from '../../http/parameters';
import { apiHandler, withStatus } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { folderServiceOf } from '../../runtime/services/directory';
import { firstRepliesOf } from '../../runtime/services/kept-replies';

/** /api/folders: the admin's client folders (list, create, edit, delete keeping the workflows). */
const create = (deps: AppDependencies) => {
  const folders = folderServiceOf(deps);
  const folderId = (pathParameters: Readonly<Record<string, string | undefined>>) =>
    idParameter(pathParameters, MESSAGES.folder.notFound);

  return apiHandler(
    deps,
    {
      listFolders: async ({ query }) => folders.list(query),
      createFolder: async ({ body, session, replyKey }) =>
        withStatus(201, await folders.create(body, session, replyKey)),
      updateFolder: async ({ body, pathParameters, session }) =>
        folders.update(folderId(pathParameters), body, session),
      deleteFolder: async ({ pathParameters, session }) => {
        await folders.delete(folderId(pathParameters), session);
        return { success: true };
      },
    },
    { keptReplies: (route) => keptReplies(route, firstRepliesOf(deps.table)) },
  );
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createFoldersHandler = declaredFunction('folders', create);

export const handler = lambdaEntry('folders', createFoldersHandler);
