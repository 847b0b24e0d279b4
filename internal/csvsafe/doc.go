// Package csvsafe is the one rule for text cells of the CSV files people
// open in a spreadsheet (the schools' tables, the pages' audit export): a
// cell that a spreadsheet would read as a formula is written as text.
//
// It imports only the standard library, so that any package writing such
// a file may use it.
package csvsafe
