import GRDB
import ArgumentParser
print("x")
