/** End-to-end runner (filled in by the foundation test-tooling work). */
console.log("e2e: no end-to-end tests yet");
