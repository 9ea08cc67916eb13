import { startGame } from './main.ts';

void startGame();
