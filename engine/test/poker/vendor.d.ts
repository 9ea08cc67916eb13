declare module 'pokersolver' {
  const pokersolver: { Hand: typeof Hand };
  export default pokersolver;
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
  const phe: {
    cardCodes(cards: string[]): number[];
    evaluateCardCodes(codes: number[]): number;
    evaluateCards(cards: string[]): number;
  };
  export default phe;
}
