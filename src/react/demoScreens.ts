import { dehydrate, QueryClient } from '@tanstack/react-query';
import type { Backend } from '../backend/types.ts';
import type { AppModel } from '../model/appModel.ts';
import type { RememberedStart } from '../runtime/rememberedStart.ts';
import { routeTable } from '../runtime/routeTable.ts';
import type { DemoAccount } from './context.ts';
import { keys, prefetchListScreen, prefetchNextPage } from './hooks.ts';

/**
 * What each demo account sees first on a first visit, worked out at build time on the build's own
 * snapshot database (src/cli/snapshotPlugin.ts): signed in as the account, every list screen without
 * parameters asked exactly as the app asks it (`prefetchListScreen`: rows, total, labels; and the
 * next page it reads ahead, `prefetchNextPage`), and the account's profile row. A first visit shows it the moment a demo button is clicked, while the
 * database it came from is still being unpacked; the database's own answers then replace it
 * (src/react/NinefoldApp.tsx). Lists the account may not read are left out (their errors are not
 * kept). Signs each account out again, so the snapshot holds no sessions.
 *
 * @example
 * const screens = await demoScreens(resolve(helpdesk), backend, demoAccounts(helpdesk), Date.now() + 86_400_000);
 * screens['agent@demo.test'].queries; // { queries: [{ queryKey: ['ticket', 'list', …], state: { data: … } }, …] }
 */
export async function demoScreens(
  model: AppModel,
  backend: Backend,
  accounts: readonly DemoAccount[],
  expiresAt: number,
): Promise<Record<string, RememberedStart>> {
  const routes = routeTable(model).routes;
  const profileEntity = model.profile;
  const out: Record<string, RememberedStart> = {};
  for (const account of accounts) {
    const session = await backend.auth.signIn({ email: account.email, password: account.password });
    try {
      const user = { id: session.user.id, roles: session.user.roles };
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      for (const route of routes)
        if (route.kind === 'list' && route.params.length === 0) {
          const location = { pathname: route.path, search: '' };
          await prefetchListScreen(client, { backend, model, user }, routes, location);
          await prefetchNextPage(client, { backend, model, user }, routes, location);
        }
      if (profileEntity)
        await client.prefetchQuery({
          queryKey: keys.row(profileEntity, user.id),
          queryFn: () => backend.data.get(profileEntity, user.id),
        });
      out[account.email] = {
        session: { user: session.user, accessToken: '', expiresAt },
        queries: JSON.parse(JSON.stringify(dehydrate(client))),
      };
      client.clear();
    } finally {
      await backend.auth.signOut();
    }
  }
  return out;
}
