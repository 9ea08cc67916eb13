declare module 'pokersolver' {
  export class Hand {
    static solve(cards: string[], game?: string): Hand;
    static winners(hands: Hand[]): Hand[];
    name: string;
    descr: string;
    rank: number;
    cards: unknown[];
  }
}
declare module 'phe' {
  export function cardCodes(cards: string[]): number[];
  export function evaluateCardCodes(codes: number[]): number;
  export function evaluateCards(cards: string[]): number;
}
