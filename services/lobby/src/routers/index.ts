import { router } from '../trpc.ts';
import { authRouter } from './auth.ts';
import { gamesRouter } from './games.ts';
import { historyRouter } from './history.ts';
import { operatorRouter } from './operator.ts';
import { roomsRouter } from './rooms.ts';

export const appRouter = router({
  auth: authRouter,
  games: gamesRouter,
  rooms: roomsRouter,
  history: historyRouter,
  operator: operatorRouter,
});

export type AppRouter = typeof appRouter;
