import Glibc
import SplashApp

exit(Splashd.main(Array(CommandLine.arguments.dropFirst())))
