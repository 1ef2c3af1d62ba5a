// Greetings for the demo: editls.edit and editls.strReplace change this file.
export function greet(name: string): string {
  return `Hello, ${name}!`;
}

export class Greeter {
  constructor(private readonly prefix: string) {}

  greetAll(names: string[]): string[] {
    return names.map((n) => `${this.prefix} ${n}`);
  }
}
